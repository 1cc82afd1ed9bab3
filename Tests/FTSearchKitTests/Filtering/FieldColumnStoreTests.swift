import Testing
import FTSearchSQLite
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit

/// The fields filters read, kept on disk (``FieldColumnStore``) and the matches of searches
/// kept in memory (``FieldTableCache``) give the answers reading the records gives: a blob
/// decodes to the column it was made of, a process that finds the columns on disk answers as
/// one that reads the records, a write makes the kept columns and matches unused, and a
/// damaged blob is read past.
@Suite struct FieldColumnStoreTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.file("test.sqlite")
        let index = try SearchIndex.temporary(in: directory)
        var random = SeededGenerator(seed: 19)
        let companies = ["Acme", "ACME", "Müller GmbH", "Initech", "", "São Paulo Ltd"]
        let people: [[(String, JSONValue)]] = (0..<400).map { offset in
            var fields: [(String, JSONValue)] = [
                ("first_name", .string(["Anna", "Ánna", "Bo", "Zoë", "Al"][offset % 5])),
                ("last_name", .string(["Müller", "Lee", "Smith", "Ødegaard", ""][offset % 7 % 5])),
                ("company", .string(companies.randomElement(using: &random)!)),
            ]
            switch offset % 6 {
            case 0: fields.append(("tags", .array([])))
            case 1: fields.append(("tags", .null))
            case 2: break
            default:
                fields.append(
                    (
                        "tags",
                        .array([.string("vip"), .string(["new", "VIP", "staff"][offset % 3])])
                    ))
            }
            if offset % 4 != 0 {
                fields.append(("age", .number(String(Int.random(in: 10...90, using: &random)))))
            }
            // Many values in one record: its count of codes takes a varint.
            if offset == 7 { fields.append(("many", .array((0..<40).map { .number(String($0)) }))) }
            return fields
        }
        try index.importRecords(
            from: [ImportSource(path: "people.json", reader: RecordList(fields: people))],
            options: ImportOptions())
    }

    static let fields = ["company", "tags", "age", "last_name", "many", "created_at", "nothing"]

    static let requests: [SearchRequest] = {
        var requests: [SearchRequest] = []
        for text in ["", "a", "mül"] {
            for filter in [nil, "tags = vip", "age > 40 OR company = acme", "many = 33"] {
                requests.append(
                    SearchRequest(
                        text: text, limit: 30, filter: filter.map { try! Filter(parsing: $0) },
                        facets: ["company", "tags", "age", "many"]))
                requests.append(
                    SearchRequest(
                        text: text, limit: 10, offset: 5,
                        filter: filter.map { try! Filter(parsing: $0) },
                        sort: [
                            SortKey(field: "last_name"), SortKey(field: "age", descending: true),
                        ]
                    ))
            }
        }
        return requests
    }()

    private func answers(_ index: SearchIndex) throws -> [SearchResults] {
        try Self.requests.map { try index.search($0) }
    }

    private func keptColumns(in index: SearchIndex) throws -> [String] {
        var fields: [String] = []
        try index.database.makeStatement(
            sql: "SELECT kind || '.' || field FROM field_columns ORDER BY 1"
        )
        .forEachRow { fields.append($0.text(at: 0) ?? "") }
        return fields
    }

    @Test func aBlobDecodesToTheColumnItWasMadeOf() throws {
        let index = try SearchIndex(path: path)
        let database = index.database
        let records = try FieldTable.loadRecords(of: .people, from: database)
        var folding = TextFolding(tokenizer: try index.tokenizer)
        for field in Self.fields {
            let column = try FieldTable.loadColumn(
                field, of: .people, capacity: records.capacity, from: database, folding: &folding)
            let decoded = try #require(FieldColumn.decoded(from: column.encoded(records: records)))
            #expect(decoded.records == records)
            #expect(decoded.column.flags == column.flags, "\(field)")
            #expect(decoded.column.starts == column.starts, "\(field)")
            #expect(decoded.column.codes == column.codes, "\(field)")
            #expect(decoded.column.terms == column.terms, "\(field)")
            #expect(decoded.column.ranks == column.ranks, "\(field)")
            #expect(decoded.column.isTime == column.isTime, "\(field)")
            // Cut short anywhere, it is no column.
            let bytes = column.encoded(records: records)
            for cut in [1, 2, bytes.count / 2, bytes.count - 1] {
                #expect(FieldColumn.decoded(from: Array(bytes.prefix(cut))) == nil)
            }
        }
    }

    @Test func aProcessThatFindsTheColumnsOnDiskAnswersAsOneThatReadsTheRecords() throws {
        let first = try SearchIndex(path: path)
        let fromRecords = try answers(first)
        let kept = try keptColumns(in: first)
        let fields = ["age", "company", "last_name", "many", "tags"]
        #expect(kept == fields.map { "animals.\($0)" } + fields.map { "people.\($0)" })
        // The same searches again: the matches kept in memory.
        #expect(try answers(first) == fromRecords)
        // Another process: every column from disk, every search afresh.
        let second = try SearchIndex(path: path)
        #expect(try answers(second) == fromRecords)
        // A damaged blob is read past: that column is read from the records again.
        try second.database.execute(
            sql: "UPDATE field_columns SET data = x'01' WHERE field = 'tags'")
        #expect(try answers(try SearchIndex(path: path)) == fromRecords)
    }

    @Test func maintenanceForgetsTheKeptColumns() throws {
        let index = try SearchIndex(path: path)
        let request = SearchRequest(text: "a", kinds: .people, facets: ["company", "tags"])
        let before = try index.search(request)
        #expect(try keptColumns(in: index) == ["people.company", "people.tags"])
        #expect(try index.check().isEmpty)
        // Merging forgets the columns of records written since; the others stay.
        _ = try index.optimize()
        #expect(try keptColumns(in: index) == ["people.company", "people.tags"])
        _ = try index.insert(Person(firstName: "Cy", lastName: "Ek", company: "Acme"))
        _ = try index.optimize()
        #expect(try keptColumns(in: index).isEmpty)
        _ = try index.search(request)
        try index.rebuild()
        #expect(try keptColumns(in: index).isEmpty)
        let after = try SearchIndex(path: path).search(request)
        #expect(after.total == before.total + 1)
        #expect(after.facets["company"] != before.facets["company"])
    }

    @Test func aWriteMakesTheKeptColumnsAndMatchesUnused() throws {
        let index = try SearchIndex(path: path)
        let request = SearchRequest(
            text: "zoë", limit: nil, filter: try Filter(parsing: "company = acme"),
            facets: ["company", "tags"])
        let before = try index.search(request)
        #expect(try index.search(request) == before)
        var zoe = try #require(try index.findAll(Person.self).first { $0.firstName == "Zoë" })
        let wasAcme = zoe.company.lowercased() == "acme"
        zoe.company = wasAcme ? "Initech" : "Acme"
        zoe[extra: "tags"] = .array([.string("moved")])
        _ = try index.update(zoe)
        let expectedTotal = before.total + (wasAcme ? -1 : 1)
        for reader in [index, try SearchIndex(path: path)] {
            let after = try reader.search(request)
            #expect(after.total == expectedTotal)
            #expect(after.hits.contains { $0.record.id == zoe.id } == !wasAcme)
            #expect((after.facets["tags"] ?? []).contains { $0.value == "moved" } == !wasAcme)
        }
    }
}
