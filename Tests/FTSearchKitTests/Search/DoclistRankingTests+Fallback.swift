import FTSearchSQLite
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

extension DoclistRankingTests {
    /// An index in a format version the reader does not know (as a later SQLite may write) is
    /// not read: the pipeline's next source, FTS5's cursor, ranks it, alone and in halves on
    /// two connections, with the reader's results.
    @Test func anIndexOfAnUnknownFormatVersionIsRankedByTheCursor() throws {
        let database = index.database
        let tokenizer = try index.tokenizer
        let reader = QueryEngine(database: database, tokenizer: tokenizer)
        let helper = RankingHelper(path: index.path)
        var unknown = QueryEngine(
            database: database, tokenizer: tokenizer, helper: { helper }, parallelMinimumSpan: 0)
        unknown.doclistFormatVersion = DoclistRanking.knownFormatVersion + 1
        var alone = unknown
        alone.helper = { nil }
        var plansRead = 0
        for text in Self.texts {
            for request in Self.requests(text) {
                let name = "\(text) (\(request.match), \(request.fields ?? []))"
                let expected = try reader.search(request)
                #expect(try unknown.search(request) == expected, "in halves: \(name)")
                #expect(try alone.search(request) == expected, "alone: \(name)")
                for plan in try reader.plans(for: request)?.0 ?? [] {
                    var ranking = DoclistRanking(database: database, plan: plan)
                    ranking.formatVersion = DoclistRanking.knownFormatVersion + 1
                    #expect(
                        try ranking.collect(
                            into: FTS5RankCollector(plan: plan, capacity: 20, on: database))
                            == nil, "read: \(name)")
                    plansRead += 1
                }
            }
        }
        #expect(plansRead > 100)
    }
}
