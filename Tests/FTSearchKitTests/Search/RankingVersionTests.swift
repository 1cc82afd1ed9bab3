import Foundation
import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit

/// Rankings kept in a database (``ResultCache``) are served for as long as the indexes are as
/// they were, whatever ftsearch reads them: an ftsearch that orders results differently must
/// change ``ResultCache/rankingVersion``, or it serves the old order from every kept ranking.
/// This test holds the two together: it ranks a fixed corpus with fixed searches and compares
/// the order with `Resources/ranking/golden.tsv`, recorded at a version. The same version
/// with another order fails (bump the version); another version asks for the file to be
/// recorded again: `FTSEARCH_RECORD_RANKING=1 swift test --filter RankingVersionTests`.
@Suite struct RankingVersionTests {
    static let golden = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/ranking/golden.tsv")

    /// One line per search: the mode, the text, then `kind:id` of each hit in order.
    static func rankings(of index: SearchIndex) throws -> [String] {
        var lines: [String] = []
        for text in FastRankingTests.queries() {
            for match in MatchMode.allCases {
                let results = try index.search(
                    SearchRequest(text: text, kinds: .all, limit: 20, match: match))
                let hits = results.hits.map {
                    "\($0.record.kind.rawValue.prefix(1)):\($0.record.id ?? 0)"
                }
                lines.append(([match.rawValue, text] + hits).joined(separator: "\t"))
            }
        }
        return lines
    }

    @Test func aChangedOrderComesWithANewRankingVersion() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        var random = SeededGenerator(seed: 42)
        let people = (0..<2500).map { _ in
            (
                FastRankingTests.firstNames.randomElement(using: &random)!,
                FastRankingTests.lastNames.randomElement(using: &random)!,
                FastRankingTests.companies.randomElement(using: &random)!
            )
        }
        try index.importPeople(people)
        try index.importAnimals(
            (0..<300).map { _ in
                FastRankingTests.firstNames.randomElement(using: &random)! + " "
                    + FastRankingTests.lastNames.randomElement(using: &random)!
            })
        let header = "ranking-version\t\(ResultCache.rankingVersion)"
        let now = [header] + (try Self.rankings(of: index))
        if ProcessInfo.processInfo.environment["FTSEARCH_RECORD_RANKING"] == "1" {
            try (now.joined(separator: "\n") + "\n").write(
                to: Self.golden, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try String(contentsOf: Self.golden, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        try #require(
            recorded.first == header,
            """
            golden.tsv was recorded at \(recorded.first ?? "no version"), this is \(header): \
            record it again (FTSEARCH_RECORD_RANKING=1 swift test --filter RankingVersionTests)
            """)
        let changed = zip(recorded, now).filter { $0 != $1 }
        #expect(
            changed.isEmpty && recorded.count == now.count,
            """
            ftsearch orders results differently at the same ResultCache.rankingVersion \
            (\(ResultCache.rankingVersion)): kept rankings would be served in the old order. \
            Bump rankingVersion, then record golden.tsv again. First difference:
            was: \(changed.first?.0 ?? "")
            now: \(changed.first?.1 ?? "")
            """)
    }
}
