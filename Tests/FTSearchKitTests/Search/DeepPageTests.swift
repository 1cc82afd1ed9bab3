import FTSearchTestSupport
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit
import FTSearchSQLite

/// Pages deep in the results: a ranked page beyond what ``ResultCache`` keeps orders only the
/// ranks at its positions (``RankedPage``), a listing page only the names whose sort codes tie
/// with its own (``QueryEngine``, ``SortKeyOrder``); both must give exactly what ordering every
/// match gives.
@Suite struct DeepPageTests {
    let directory: TemporaryDirectory
    let index: SearchIndex
    /// Every person's and every animal's id, in listing order, worked out here from the rows.
    let listing: [(kind: Kind, id: Int64)]

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        index.resultCacheMinimumCost = .zero
        var random = SeededGenerator(seed: TestSettings.seed)
        try index.importPeople(
            (0..<1800).map { _ in
                (
                    FastRankingTests.firstNames.randomElement(using: &random)!,
                    FastRankingTests.lastNames.randomElement(using: &random)!,
                    FastRankingTests.companies.randomElement(using: &random)!
                )
            })
        try index.importAnimals(
            (0..<400).map { _ in FastRankingTests.firstNames.randomElement(using: &random)! })
        try index.prepareIndexes(for: .substring, of: .all)
        var listing: [(kind: Kind, id: Int64)] = []
        for kind in Set<Kind>.all.inOrder {
            var rows: [(key: [UInt8], id: Int64)] = []
            try index.database.cachedStatement(
                sql: "SELECT id, \(SortName.sql(of: kind)) FROM \(kind.tableName)"
            ).forEachRow { rows.append((Array(($0.text(at: 1) ?? "").utf8), $0.int64(at: 0))) }
            rows.sort { a, b in
                let order = SortName.compare(a.key, b.key)
                return order != 0 ? order < 0 : a.id < b.id
            }
            listing += rows.map { (kind, $0.id) }
        }
        self.listing = listing
    }

    /// Offsets around the end of what is kept (500), inside the people, across into the
    /// animals and beyond every match.
    static let pages: [(limit: Int, offset: Int)] = [
        (20, 481), (20, 600), (7, 1234), (1, 1799), (20, 1790), (20, 2190), (20, 5000),
    ]

    @Test(arguments: pages)
    func deepRankedPagesEqualTheReferencePlan(limit: Int, offset: Int) throws {
        for text in ["a", "an", "ann", "s", "bo", "a a", "ann smith", "an an"] {
            for request in FastRankingTests.requests(
                text, kinds: .all, limit: limit, offset: offset)
            {
                let fast = try index.search(request)
                let reference = try index.referenceSearch(request)
                #expect(fast == reference, "\(text) (\(request.match)) at \(offset)")
            }
        }
    }

    /// An offset whose page end would overflow finds nothing after every match, without a
    /// crash or the memory of its size.
    @Test(arguments: ["a", "ann smith", ""])
    func anOffsetNearTheLargestIntegerFindsNothing(text: String) throws {
        #expect(try index.referenceSearch(SearchRequest(text: text, limit: 1)).total > 0)
        for request in FastRankingTests.requests(text, kinds: .all, limit: 20, offset: .max - 5) {
            let results = try index.search(request)
            #expect(results.hits.isEmpty)
            #expect(results.total == (try index.referenceSearch(request)).total)
        }
    }

    @Test func aDeepPageLeavesTheKeptFirstPageAlone() throws {
        let first = SearchRequest(text: "a", limit: 20)
        _ = try index.search(first)
        let deep = SearchRequest(text: "a", limit: 20, offset: 900)
        #expect(try index.search(deep) == (try index.referenceSearch(deep)))
        // The deep page's order begins at 900: kept, it would have replaced the first page's.
        let entries = try index.database.fetchInt(
            sql: "SELECT sum(length(entries)) FROM result_cache")
        #expect(try index.database.fetchInt(sql: "SELECT count(*) FROM result_cache") == 1)
        #expect(entries == 20 * 21)
    }

    @Test(arguments: pages + [(0, 0), (1, 0), (20, 0)])
    func listingPagesAreSlicesOfTheWholeListing(limit: Int, offset: Int) throws {
        for kinds in [Set<Kind>.all, .people, .animals] {
            let expected = listing.filter { kinds.contains($0.kind) }
            let results = try index.search(
                SearchRequest(text: " ", kinds: kinds, limit: limit, offset: offset))
            #expect(results.total == expected.count)
            let page = expected.dropFirst(offset).prefix(limit)
            #expect(results.hits.map(\.record.kind) == page.map(\.kind), "\(kinds) at \(offset)")
            #expect(results.hits.map(\.record.id) == page.map(\.id), "\(kinds) at \(offset)")
        }
    }

    @Test func aListingWithoutLimitListsEveryRecordFromTheOffset() throws {
        let results = try index.search(SearchRequest(text: "", limit: nil, offset: 1790))
        #expect(results.hits.map(\.record.id) == listing.dropFirst(1790).map(\.id))
        #expect(results.hits.first?.record.kind == .people)
        #expect(results.hits.last?.record.kind == .animals)
    }

    /// A listing page inside a run of thousands of equal codes reads half of the run's names
    /// on the helper's connection: only in the version of the names the listing reads. Here
    /// another connection reverses every name (each code stays `rex`) after the listing's
    /// transaction began; the helper's half, newer, is read again here.
    @Test func aListingReadsOneVersionOfTheNamesOnBothConnections() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        let count = 4000
        func name(_ number: Int) -> String {
            "Rex " + String(repeating: "0", count: 4 - String(number).count) + String(number)
        }
        try index.importAnimals((0..<count).map(name))
        let writer = try Database.openAdditionalConnection(path: index.path)
        let helper = try #require(index.openRankingHelper)
        try helper.start { _ in }.wait()
        let engine = try index.queryEngine(helper: { helper })
        let request = SearchRequest(text: "", kinds: .animals, limit: 6)
        try index.database.execute(sql: "BEGIN")
        defer { try? index.database.execute(sql: "COMMIT") }
        #expect(try index.database.fetchInt(sql: "SELECT count(*) FROM animals") == count)
        try writer.execute(
            sql: "UPDATE animals SET name = 'Rex ' || printf('%04d', \(count) - id)")
        let reference = try engine.referenceSearch(request)
        #expect(reference.hits.map(\.record.id) == [1, 2, 3, 4, 5, 6])
        for _ in 0..<3 {
            #expect(try engine.search(request) == reference)
        }
    }

    /// An animal whose name another program stored as a blob, which SQLite lists after every
    /// name that is text: so does its sort code (``SortCodes/ofNonText``).
    @Test func aNameStoredAsABlobIsListedLast() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importAnimals(["Bob", "Cat", "Rex"])
        try index.database.execute(
            sql: "INSERT INTO animals(name, created_at, updated_at) VALUES (X'616161', 0, 0)")
        let request = SearchRequest(text: "", kinds: .animals, limit: 10)
        let reference = try index.referenceSearch(request)
        #expect(reference.hits.map(\.record.id) == [1, 2, 3, 4])
        let fast = try index.search(request)
        #expect(fast == reference, "\(fast) vs \(reference)")
        #expect(try index.check().isEmpty)
    }
}
