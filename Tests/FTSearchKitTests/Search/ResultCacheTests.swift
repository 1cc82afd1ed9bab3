@testable import FTSearchFormats
import Foundation
import FTSearchTestSupport
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit
import FTSearchSQLite

/// Kept rankings (``ResultCache``) are served only while the indexes are as they were, give
/// exactly the reference plan's results, and never hold up or fail a search.
@Suite struct ResultCacheTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        // Every ranking is worth keeping here, however cheap.
        index.resultCacheMinimumCost = .zero
        try index.importPeople(
            (0..<600).map { number in
                (
                    FastRankingTests.firstNames[number % FastRankingTests.firstNames.count],
                    FastRankingTests.lastNames[number % FastRankingTests.lastNames.count],
                    FastRankingTests.companies[number % FastRankingTests.companies.count]
                )
            })
        try index.importAnimals(["Anna the cat", "Bo the dog"])
    }

    private func keptCount() throws -> Int {
        try index.database.fetchInt(sql: "SELECT count(*) FROM result_cache") ?? 0
    }

    /// Reverses the kept orders and drops their frontiers, so that none is brought up to date
    /// after a write (``RankingMaintenanceTests`` tests that).
    private func reverseKeptOrders() throws {
        try index.database.execute(sql: "UPDATE result_cache SET frontier = NULL")
        try index.reverseKeptOrders()
    }

    @Test func keptRankingsEqualTheReferencePlan() throws {
        for text in FastRankingTests.queries() {
            for request in FastRankingTests.requests(text, kinds: .all, limit: 7, offset: 3) {
                let ranked = try index.search(request)
                let kept = try index.search(request)
                #expect(kept == ranked, "\(text) (\(request.match))")
                #expect(kept == (try index.referenceSearch(request)), "\(text) (\(request.match))")
            }
        }
        #expect(try keptCount() > 100)
    }

    @Test func aKeptRankingIsServedWithoutRanking() throws {
        let request = SearchRequest(text: "ann", kinds: .people, limit: 5)
        let ranked = try index.search(request)
        try #require(ranked.total > 5)
        try reverseKeptOrders()
        let served = try index.search(request)
        #expect(served.total == ranked.total)
        #expect(served.hits.map(\.record.id) != ranked.hits.map(\.record.id))
    }

    @Test(arguments: ["insert", "update", "delete", "import"])
    func anyChangeToTheRecordsMakesKeptRankingsStale(change: String) throws {
        let request = SearchRequest(text: "ann", kinds: .people, limit: 5)
        let first = try index.search(request)
        try reverseKeptOrders()
        switch change {
        case "insert": _ = try index.insert(Person(firstName: "Ann", lastName: "Aardvark"))
        case "update":
            _ = try index.update(Person.self, id: first.hits[0].record.id!) { $0.firstName = "Zed" }
        case "delete": _ = try index.delete(Person.self, ids: [first.hits[0].record.id!])
        default: try index.importPeople([("Annika", "Berg", "")])
        }
        #expect(try index.search(request) == (try index.referenceSearch(request)))
    }

    @Test func optimizeDropsTheKeptRankings() throws {
        let request = SearchRequest(text: "ann", kinds: .people, limit: 5)
        _ = try index.search(request)
        try #require(try keptCount() == 1)
        try index.optimize()
        #expect(try keptCount() == 0)
        #expect(try index.search(request) == (try index.referenceSearch(request)))
    }

    @Test func changedExtraFieldsShowInKeptResults() throws {
        let request = SearchRequest(text: "ann", kinds: .people, limit: 3)
        let id = try #require(try index.search(request).hits[0].record.id)
        _ = try index.update(Person.self, id: id) {
            $0.extra = [JSONMember(key: "city", value: .string("Oslo"))]
        }
        let hit = try #require(try index.search(request).hits.first { $0.record.id == id })
        #expect(hit.record.extra == [JSONMember(key: "city", value: .string("Oslo"))])
    }

    @Test func aLaterPageBeyondTheKeptOnesIsRankedAndKept() throws {
        let first = SearchRequest(text: "a", kinds: .all, limit: 10)
        let later = SearchRequest(text: "a", kinds: .all, limit: 10, offset: 30)
        _ = try index.search(first)
        #expect(try index.search(later) == (try index.referenceSearch(later)))
        try reverseKeptOrders()
        // The later page's ranking (40 entries) replaced the first one's and serves both.
        #expect(try index.search(first) != (try index.referenceSearch(first)))
        #expect(try keptCount() == 1)
    }

    @Test func cheapRankingsAreNotKept() throws {
        index.resultCacheMinimumCost = .seconds(60)
        _ = try index.search(SearchRequest(text: "ann", limit: 5))
        #expect(try keptCount() == 0)
    }

    @Test func longRankingsAreNotKept() throws {
        let limit = ResultCache.longestKeptRanking + 1
        _ = try index.search(SearchRequest(text: "a", limit: limit))
        #expect(try index.search(SearchRequest(text: "a", limit: limit)).hits.count == limit)
        #expect(try keptCount() == 0)
    }

    @Test func theOldestRankingsMakeRoom() throws {
        for number in 0..<(ResultCache.capacity + 20) {
            _ = try index.search(SearchRequest(text: "ann \(number)", limit: 5))
        }
        #expect(try keptCount() == ResultCache.capacity)
        let oldest = try index.database.fetchText(
            sql: "SELECT key FROM result_cache ORDER BY id LIMIT 1")
        #expect(oldest?.contains("\"20\"") == true)
    }

    @Test func aSearchNeverWaitsForTheWriteLock() throws {
        let writer = try Database(path: index.path)
        try writer.execute(sql: "BEGIN IMMEDIATE")
        defer { try? writer.execute(sql: "ROLLBACK") }
        let clock = ContinuousClock()
        let request = SearchRequest(text: "bo", limit: 5)
        var results: SearchResults?
        let elapsed = try clock.measure { results = try index.search(request) }
        #expect(elapsed < .seconds(5))  // not the 10-second busy timeout
        #expect(results == (try index.referenceSearch(request)))
        #expect(try keptCount() == 0)
    }
}

extension SearchIndex {
    /// Reverses the order kept for every search (entries of 21 bytes), so that a test sees
    /// when a search is served from its kept ranking.
    func reverseKeptOrders() throws {
        var kept: [(Int64, [UInt8])] = []
        try database.cachedStatement(sql: "SELECT id, entries FROM result_cache")
            .forEachRow { kept.append(($0.int64(at: 0), $0.bytes(at: 1))) }
        for (id, entries) in kept {
            let reversed = stride(from: 0, to: entries.count, by: 21).reversed()
                .flatMap { entries[$0..<$0 + 21] }
            try database.execute(
                sql: "UPDATE result_cache SET entries = ?1 WHERE id = ?2",
                arguments: [reversed, id])
        }
    }
}
