import FTSearchKit
import FTSearchTestSupport
import Foundation
import Testing

/// Random hostile queries through the built binary: every FTS5 operator and punctuation, quotes,
/// combining marks, emoji and right-to-left text as command-line arguments (NUL cannot be one).
/// Every run exits 0 with nothing on standard error, and finds exactly what the library finds
/// in-process (which `QueryFuzzTests` holds to a reference matcher).
///
/// Default: 200 queries and 100 suggestions; scaled by `FTSEARCH_STRESS_ITERATIONS`.
@Suite struct QueryFuzzEndToEndTests {
    static let queryCount = TestSettings.iterations(200)
    static let suggestionCount = TestSettings.iterations(100)

    static let pieces = [
        "ann", "Ann", "ZOË", "zoe", "mül", "o'br", "Ø", "smith", "\"", "\"\"", "*", "-", "--", ":",
        "^",
        "(", ")", "+", "{", "}", "[", "]", "AND", "OR", "NOT", "NEAR", "NEAR/2", " ", "\t", "\n",
        "e\u{301}",
        "\u{301}", "😀", "👩‍👩‍👧", "\u{200F}", "\u{202E}", "שלום", "مرحبا", "日本", "\\", "'", "%", "_",
        "42",
        "x*", "-ann", "\u{FEFF}", "\u{2028}", "ﬁ", "ß", "İ",
    ]

    static func text(using random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...5, using: &random)).map { _ in
            pieces[Int(random.next() % UInt64(pieces.count))]
        }
        .joined(separator: random.next() % 2 == 0 ? " " : "")
    }

    @Test func hostileQueriesSucceedAndMatchTheLibrary() throws {
        let ftsearch = try FTSearchRunner()
        try ftsearch.run([
            "import", FTSearchRunner.fixture("people.json"), FTSearchRunner.fixture("animals.json"),
            FTSearchRunner.fixture("people.csv"),
        ])
        let index = try SearchIndex(path: ftsearch.databasePath, mode: .existingOnly)
        var random = SeededGenerator(seed: TestSettings.seed)
        var logged = 0
        for number in 0..<Self.queryCount {
            let text = Self.text(using: &random)
            let logsHistory = random.next() % 4 == 0
            let outcome = try ftsearch.run(
                ["query", "--format", "json", "--limit", "0"]
                    + (logsHistory ? [] : ["--no-history"]) + ["--", text])
            let context = "query \(number) \(text.debugDescription) (seed \(TestSettings.seed))"
            #expect(
                outcome.exitCode == 0 && outcome.standardError.isEmpty,
                "\(context): \(outcome.summary)")
            let expected = try index.search(SearchRequest(text: text, limit: nil))
            let json =
                try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8))
                as? [String: Any]
            let results = json?["results"] as? [[String: Any]] ?? []
            #expect(json?["total"] as? Int == expected.total, "\(context): total")
            let ids = results.map { "\($0["kind"] as? String ?? "?") \($0["id"] as? Int ?? -1)" }
            #expect(
                ids == expected.hits.map { "\($0.record.kind.rawValue) \($0.record.id ?? -1)" },
                "\(context): ids")
            if logsHistory && !text.allSatisfy(\.isWhitespace) { logged += 1 }
        }
        for number in 0..<Self.suggestionCount {
            let text = Self.text(using: &random)
            let source = ["history", "index", "all"][Int(random.next() % 3)]
            let outcome = try ftsearch.run([
                "suggest", "--source", source, "--format", "json", "--", text,
            ])
            let context = "suggest \(number) \(text.debugDescription) (seed \(TestSettings.seed))"
            #expect(
                outcome.exitCode == 0 && outcome.standardError.isEmpty,
                "\(context): \(outcome.summary)")
            #expect(
                (try? JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)))
                    is [Any], "\(context)")
        }
        // Every logged search is in the history: the counts add up.
        let total = try index.history.entries().reduce(0) { $0 + $1.useCount }
        #expect(total == logged)
    }
}
