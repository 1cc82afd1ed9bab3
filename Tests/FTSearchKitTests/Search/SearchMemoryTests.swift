import FTSearchTestSupport
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit
import FTSearchSQLite

/// What searches keep in memory (``SearchMemory``) is shared by the connections given it,
/// kept on a database that cannot be written, and served only while the indexes are unchanged.
@Suite struct SearchMemoryTests {
    let directory: TemporaryDirectory
    let index: SearchIndex
    let memory = SearchMemory()

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        try index.importPeople(
            (0..<600).map { number in
                (
                    FastRankingTests.firstNames[number % FastRankingTests.firstNames.count],
                    FastRankingTests.lastNames[number % FastRankingTests.lastNames.count],
                    FastRankingTests.companies[number % FastRankingTests.companies.count]
                )
            })
    }

    /// A connection that can only read the database, sharing `memory`, keeping every ranking.
    private func reader() throws -> SearchIndex {
        let reader = try SearchIndex(path: index.path, mode: .readOnly)
        reader.resultCacheMinimumCost = .zero
        reader.memory = memory
        return reader
    }

    /// The slot `request`'s ranking is kept in, as `index`'s indexes are now.
    private func slot(of request: SearchRequest, in index: SearchIndex) throws -> ResultCache.Slot {
        let (plans, _) = try #require(try index.queryEngine(helper: { nil }).plans(for: request))
        return try ResultCache(database: index.database, minimumCost: .zero).slot(for: plans)
    }

    /// Reverses the ranking kept in memory for `request`, so that serving it shows.
    private func reverseKeptOrder(of request: SearchRequest) throws {
        let slot = try slot(of: request, in: index)
        var order = try #require(memory.order(in: slot))
        order.entries.reverse()
        memory.keep(order, in: slot)
    }

    @Test func aRankingKeptOnAReadOnlyDatabaseServesAnotherConnection() throws {
        let request = SearchRequest(text: "ann", kinds: .people, limit: 5)
        let ranked = try reader().search(request)
        try #require(ranked.total > 5)
        #expect(memory.rankingCount == 1)
        #expect(try index.database.fetchInt(sql: "SELECT count(*) FROM result_cache") == 0)
        try reverseKeptOrder(of: request)
        let served = try reader().search(request)
        #expect(served.total == ranked.total)
        #expect(served.hits.map(\.record.id) == ranked.hits.map(\.record.id).reversed())
    }

    @Test func aChangeToTheRecordsMakesAKeptRankingStale() throws {
        index.resultCacheMinimumCost = .zero
        index.memory = memory
        let request = SearchRequest(text: "ann", kinds: .people, limit: 5)
        _ = try index.search(request)
        try reverseKeptOrder(of: request)
        _ = try index.insert(Person(firstName: "Ann", lastName: "Aardvark"))
        #expect(try reader().search(request) == (try index.referenceSearch(request)))
    }

    @Test func theLeastRecentlyUsedRankingMakesRoom() throws {
        let memory = SearchMemory(capacity: 2)
        let order = RankedOrder(total: 0, entries: [])
        let slots = ["a", "b", "c"].map { ResultCache.Slot(key: $0, structure: [1]) }
        memory.keep(order, in: slots[0])
        memory.keep(order, in: slots[1])
        _ = memory.order(in: slots[0])
        memory.keep(order, in: slots[2])
        #expect(memory.rankingCount == 2)
        #expect(memory.order(in: slots[0]) != nil)
        #expect(memory.order(in: slots[1]) == nil)
        #expect(memory.order(in: ResultCache.Slot(key: "a", structure: [2])) == nil)
    }

    @Test func aVocabularyReadForADidYouMeanIsKeptOnAReadOnlyDatabase() throws {
        let found = try reader().search(SearchRequest(text: "smiht", kinds: .people, limit: 5))
        #expect(found.didYouMean == "smith")
        let structure = try IndexStructure.record(
            ofIndexNamed: Kind.people.indexName, in: index.database)
        #expect(memory.vocabulary(of: .people, structure: structure)?.count ?? 0 > 0)
        #expect(try index.database.fetchInt(sql: "SELECT count(*) FROM vocabulary_cache") == 0)
    }
}
