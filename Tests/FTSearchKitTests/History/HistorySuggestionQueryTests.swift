import FTSearchSQLite
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// History suggestions read the key index for entries starting with the prefix and scan for
/// later words only when those are too few: on a random history, they must be exactly what the
/// one naive query gives for every order, filter and limit.
@Suite struct HistorySuggestionQueryTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        var random = SeededGenerator(seed: 21)
        let syllables = ["an", "na", "ma", "ri", "el", "lo", "ann", "mar"]
        func word() -> String {
            (0..<Int.random(in: 1...3, using: &random)).map { _ in
                syllables.randomElement(using: &random)!
            }.joined()
        }
        let history = try index.historyDatabase
        try history.inTransaction {
            let insert = try history.makeStatement(
                sql: """
                    INSERT OR IGNORE INTO history(key, text, kind, result_count, use_count, first_used, last_used)
                    VALUES (?1, ?1, ?2, ?3, ?4, '2026-01-01T00:00:00.000Z', ?5)
                    """)
            for _ in 0..<1500 {
                let text = (0..<Int.random(in: 1...3, using: &random)).map { _ in word() }
                    .joined(separator: " ")
                try insert.execute([
                    text, ["all", "people", "animals"].randomElement(using: &random)!,
                    Int.random(in: 0...3, using: &random), Int.random(in: 1...4, using: &random),
                    "2026-0\(Int.random(in: 1...9, using: &random))-01T00:00:00.000Z",
                ])
            }
        }
    }

    /// The one query history suggestions are specified by.
    func naive(_ key: String, _ options: SuggestionOptions) throws -> [String] {
        var texts: [String] = []
        try index.historyDatabase.makeStatement(sql: Suggester.referenceSQL(order: options.order))
            .forEachRow([
                key, options.kinds.name, options.includesEmptyResults,
                index.clock().description, options.limit,
            ]) { texts.append($0.text(at: 0) ?? "") }
        return texts
    }

    @Test(arguments: ["", "a", "an", "ann", "ma", "ri", "an ", "anna m", "lo lo", "zz"])
    func suggestionsAreWhatTheNaiveQueryGives(prefix: String) throws {
        for order in [SuggestionOptions.Order.frequency, .recency, .frecency] {
            for kinds in [Set<Kind>.all, .people] {
                for limit in [1, 10, 400] {
                    for includesEmpty in [false, true] {
                        let options = SuggestionOptions(
                            limit: limit, kinds: kinds, order: order, sources: [.history],
                            includesEmptyResults: includesEmpty)
                        let suggested = try index.suggestions(forPrefix: prefix, options: options)
                            .map(\.text)
                        let expected = try naive(prefix, options)
                        #expect(
                            suggested == expected,
                            "\(prefix) \(order) \(kinds) \(limit) \(includesEmpty)")
                    }
                }
            }
        }
        // Both groups are exercised: some prefixes have more later-word than first-word matches.
        let all = SuggestionOptions(limit: 2000, sources: [.history], includesEmptyResults: true)
        let found = try index.suggestions(forPrefix: prefix, options: all).map(\.text)
        #expect(found == (try naive(prefix, all)))
    }
}
