import FTSearchTestSupport
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit
import FTSearchSQLite

/// A filtered or sorted search keeps its ranking as a plain one does (``RankingRestriction``):
/// the same filter and sort again, however the filter is written, is served from it, and any
/// write to the records, a field no text index holds too, makes it stale.
@Suite struct FilteredKeptRankingTests {
    let directory: TemporaryDirectory
    let index: SearchIndex
    static let filter = "tags = vip AND age > 20"

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        // Every ranking is worth keeping here, however cheap.
        index.resultCacheMinimumCost = .zero
        var random = SeededGenerator(seed: 3)
        var people: [[(String, JSONValue)]] = []
        for number in 0..<400 {
            let first: JSONValue = .string(["Ann", "Anna", "Bo", "Annika"][number % 4])
            let last: JSONValue = .string(["Andersen", "Berg", "Lund"][number % 3])
            let company: JSONValue = .string(["Acme", "Initech"][number % 2])
            let tags: [JSONValue] = Bool.random(using: &random) ? [.string("vip")] : []
            let age: JSONValue = .number(String(Int.random(in: 10...60, using: &random)))
            people.append([
                ("first_name", first), ("last_name", last), ("company", company),
                ("tags", .array(tags)), ("age", age),
            ])
        }
        try index.importRecords(
            from: [ImportSource(name: "people.json", reader: RecordList(fields: people))],
            options: ImportOptions())
    }

    private func request(_ filter: String) throws -> SearchRequest {
        SearchRequest(text: "ann", kinds: .people, limit: 6, filter: try Filter(parsing: filter))
    }

    /// The search ranked afresh, no kept ranking read or written.
    private func ranked(_ request: SearchRequest) throws -> SearchResults {
        index.keepsExpensiveRankings = false
        defer { index.keepsExpensiveRankings = true }
        return try index.search(request)
    }

    @Test func aRepeatedFilteredSearchIsServedFromItsKeptRanking() throws {
        let first = try index.search(try request(Self.filter))
        #expect(first == (try ranked(try request(Self.filter))))
        try #require(first.total > 6)
        #expect(
            try index.database.fetchInt(
                sql: "SELECT count(*) FROM result_cache WHERE key LIKE '%filter%'") == 1)
        try index.reverseKeptOrders()
        let ids = first.hits.map(\.record.id)
        #expect(try index.search(try request(Self.filter)).hits.map(\.record.id) == ids.reversed())
        // The same filter written otherwise is the same kept ranking.
        let respelled = "(tags = 'vip') AND (age > 20)"
        let served = try index.search(try request(respelled))
        #expect(served.hits.map(\.record.id) == ids.reversed())
        #expect(served.total == first.total)
        // Another filter, or none, is not served that ranking.
        for other in ["tags = vip AND age > 21", "tags = vip"] {
            #expect(try index.search(try request(other)) == (try ranked(try request(other))))
        }
        var plain = try request(Self.filter)
        plain.filter = nil
        #expect(try index.search(plain) == (try ranked(plain)))
    }

    @Test(arguments: ["insert", "update of a field no text index holds", "delete"])
    func aWriteMakesTheKeptFilteredRankingStale(write: String) throws {
        let first = try index.search(try request(Self.filter))
        let top = try #require(first.hits.first?.record.id)
        try index.reverseKeptOrders()
        switch write {
        case "insert":
            _ = try index.insert(Person(firstName: "Ann", lastName: "Aardvark"))
        case "delete":
            _ = try index.delete(Person.self, ids: [top])
        default:
            // The text indexes' triggers watch the names and company only: this changes no
            // index, only what the filter reads.
            try index.database.execute(
                sql:
                    "UPDATE people SET extra = json_set(extra, '$.tags', json('[]')) WHERE id = ?1",
                arguments: [top])
        }
        let after = try index.search(try request(Self.filter))
        #expect(after == (try ranked(try request(Self.filter))), "\(write)")
        #expect(after.hits.map(\.record.id) != first.hits.map(\.record.id).reversed())
    }

    @Test func aRepeatedSortedSearchIsServedFromItsKeptPage() throws {
        var request = try request(Self.filter)
        request.sort = [SortKey(field: "age", descending: true)]
        request.offset = 2
        let first = try index.search(request)
        #expect(first == (try ranked(request)))
        try #require(first.total > 8)
        // Kept from the first match: the page of 6 at offset 2 is the kept order's last 6 of 8.
        var fromTheFirst = request
        (fromTheFirst.offset, fromTheFirst.limit) = (0, 8)
        let ids = try ranked(fromTheFirst).hits.map(\.record.id)
        #expect(first.hits.map(\.record.id) == Array(ids.dropFirst(2)))
        try index.reverseKeptOrders()
        #expect(
            try index.search(request).hits.map(\.record.id)
                == Array(ids.reversed().dropFirst(2)))
        // Another direction, or none, is not served that page.
        var ascending = request
        ascending.sort = [SortKey(field: "age")]
        #expect(try index.search(ascending) == (try ranked(ascending)))
        // A write to the field sorted by, which no text index holds, makes it stale.
        try index.database.execute(
            sql: "UPDATE people SET extra = json_set(extra, '$.age', 99) WHERE id = ?1",
            arguments: [try #require(ids.last ?? nil)])
        let after = try index.search(request)
        #expect(after == (try ranked(request)))
        var top = request
        top.offset = 0
        #expect(try index.search(top).hits.first?.record.id == ids.last)
    }
}
