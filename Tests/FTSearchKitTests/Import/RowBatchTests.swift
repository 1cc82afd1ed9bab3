@testable import FTSearchFormats
import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// An import writes its rows by batches of multi-row statements (``RowStatements``) exactly as
/// it would one by one: at and across the boundaries of a statement, of a batch, and of the
/// reading's batches, with and without ids, replacing records, and failing.
@Suite struct RowBatchTests {
    let directory: TemporaryDirectory
    let index: SearchIndex
    /// The most rows one statement writes.
    let rows = RowStatements.maximumRows

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
    }

    private func person(_ id: Int64?, _ first: String, _ extra: [(String, JSONValue)] = [])
        -> [(String, JSONValue)]
    {
        (id.map { [("id", JSONValue.number(String($0)))] } ?? [])
            + [("first_name", .string(first)), ("last_name", .string("L\(first)"))] + extra
    }

    @discardableResult
    private func run(
        _ fields: [[(String, JSONValue)]], options: ImportOptions = ImportOptions(),
        in index: SearchIndex? = nil
    ) throws -> ImportSummary {
        try (index ?? self.index).importRecords(
            from: [ImportSource(name: "in.json", reader: RecordList(fields: fields))],
            options: options)
    }

    private func firstName(of id: Int64) throws -> String? {
        try index.find(Person.self, id: id)?.firstName
    }

    @Test func aStatementWritesThePowersOfTwoOfABatchLargestFirst() {
        #expect(RowStatements.rows(ofStatementFor: 1) == 1)
        #expect(RowStatements.rows(ofStatementFor: 3) == 2)
        #expect(RowStatements.rows(ofStatementFor: rows - 1) == rows / 2)
        #expect(RowStatements.rows(ofStatementFor: rows) == rows)
        #expect(RowStatements.rows(ofStatementFor: rows * 3 + 1) == rows)
    }

    /// One row more than a statement writes, two statements and some, and more than a reading
    /// batch: every record is stored, under its id or under the id SQLite gave it in input
    /// order, and every derived structure follows (the sort codes are told each row's id).
    @Test(arguments: [false, true], [1, 2, 4])
    func everyRowOfAnImportIsStoredUnderItsID(givesIDs: Bool, statements: Int) throws {
        try run([person(nil, "Before")])
        let count = rows * statements + 1
        let summary = try run(
            (0..<count).map { person(givesIDs ? Int64($0) + 2 : nil, "P\(count - $0)") })
        #expect(summary.inserted == [.people: count])
        #expect(try index.count(Person.self) == count + 1)
        for offset in [0, 1, rows - 1, rows, count - 1] {
            #expect(try firstName(of: Int64(offset) + 2) == "P\(count - offset)")
        }
        #expect(try index.names(for: "lp\(count)") == ["P\(count) LP\(count)"])
        #expect(try index.check().isEmpty)
    }

    /// The same id twice, in one statement's rows and across two, with records before and after
    /// it: the later record wins, counted as a replacement; a stored record is replaced once
    /// and its old tokens leave the index.
    @Test func anIDGivenTwiceAcrossABatchBoundaryKeepsTheLaterRecord() throws {
        try run([person(3, "Stored")])
        var records = (1...Int64(rows * 2)).map { person($0, "N\($0)") }
        records.insert(person(3, "Again"), at: 5)
        records.insert(person(Int64(rows - 1), "Twice"), at: rows + 1)
        records.append(person(3, "Last"))
        let summary = try run(records)
        #expect(summary.inserted == [.people: rows * 2 - 1])
        #expect(summary.updated == [.people: 4])
        #expect(try firstName(of: 3) == "Last")
        #expect(try firstName(of: Int64(rows - 1)) == "Twice")
        #expect(try firstName(of: Int64(rows)) == "N\(rows)")
        #expect(try index.names(for: "stored").isEmpty)
        #expect(try index.names(for: "again").isEmpty)
        #expect(try index.names(for: "last") == ["Last LLast"])
        #expect(try index.count(Person.self) == rows * 2)
        #expect(try index.check().isEmpty)
    }

    /// Records with ids among records without: each gets its own id, in input order; a record
    /// naming an id SQLite gave a record of an earlier statement moves that record to a new id.
    @Test func recordsWithAndWithoutIDsMixedAcrossStatements() throws {
        var records = (0..<rows + 2).map { person(nil, "Auto\($0)") }
        records.append(person(5, "Named"))
        records += (0..<3).map { person(nil, "Late\($0)") }
        records.append(person(Int64(rows * 4), "Far"))
        records.append(person(nil, "Last"))
        let summary = try run(records)
        #expect(summary.inserted == [.people: rows + 8])
        #expect(summary.updated == [:])
        #expect(try firstName(of: 1) == "Auto0")
        #expect(try firstName(of: Int64(rows + 2)) == "Auto\(rows + 1)")
        #expect(try firstName(of: 5) == "Named")
        // Auto4 moved above the highest id given so far; then the late ones.
        #expect(try firstName(of: Int64(rows + 3)) == "Auto4")
        #expect(try firstName(of: Int64(rows + 4)) == "Late0")
        #expect(try firstName(of: Int64(rows * 4 + 1)) == "Last")
        #expect(try index.count(Person.self) == rows + 8)
        #expect(try index.check().isEmpty)
    }

    /// Replacing stored records in one statement, some giving a creation time (kept as given,
    /// even one equal to the import's clock) and some not (the stored one is kept).
    @Test func replacedRecordsKeepTheirCreationTimeUnlessTheyGiveOneInTheSameStatement() throws {
        try run((1...4).map { person($0, "Old\($0)") })
        let later = try SearchIndex.temporary(in: directory, now: "2026-06-01T00:00:00Z")
        let clock = ("created_at", JSONValue.string("2026-06-01T00:00:00Z"))
        try run(
            [
                person(1, "New1", [("created_at", .string("2000-01-01T00:00:00Z"))]),
                person(2, "New2"), person(3, "New3", [clock]), person(4, "New4"),
            ], in: later)
        let created = try (1...4).map { try #require(try later.find(Person.self, id: $0)) }
            .map { $0.createdAt?.description }
        #expect(
            created == [
                "2000-01-01T00:00:00.000Z", "2026-01-01T12:00:00.000Z", "2026-06-01T00:00:00.000Z",
                "2026-01-01T12:00:00.000Z",
            ])
        #expect(try later.find(Person.self, id: 2)?.firstName == "New2")
    }

    /// `--replace` with more rows than a statement writes: the old records are gone, the new
    /// ones stored under the ids they name or new ones.
    @Test func replacingAllWritesEveryBatch() throws {
        try run((1...3).map { person($0, "Old\($0)") })
        let count = rows * 2 + 3
        let summary = try run(
            (0..<count).map { person($0 <= rows ? Int64($0) + 1 : nil, "R\($0)") },
            options: ImportOptions(kind: .people, replace: true))
        #expect(summary.inserted == [.people: count])
        #expect(try index.count(Person.self) == count)
        #expect(try index.names(for: "old").isEmpty)
        #expect(try firstName(of: 1) == "R0")
        #expect(try firstName(of: Int64(count)) == "R\(count - 1)")
        #expect(try index.check().isEmpty)
    }

    /// Invalid records in the middle of a statement's rows: skipped, the rows around them
    /// stored; without `skipInvalid`, the error names the record's line and nothing is stored.
    @Test func anInvalidRecordInTheMiddleOfABatch() throws {
        var records = (0..<rows * 2).map { person(nil, "V\($0)") }
        records[rows / 2] = [("company", .string("Nameless"))]
        records[rows + 1] = [("company", .string("Nameless"))]
        let summary = try run(records, options: ImportOptions(skipInvalid: true))
        #expect(summary.skipped == 2)
        #expect(summary.inserted == [.people: rows * 2 - 2])
        #expect(try firstName(of: Int64(rows / 2)) == "V\(rows / 2 - 1)")
        #expect(try firstName(of: Int64(rows / 2 + 1)) == "V\(rows / 2 + 1)")
        #expect(try index.check().isEmpty)

        let error = try #require(throws: ImportError.self) { try run(records) }
        #expect(error.description == "in.json:\(rows / 2 + 2): a person needs a first or last name")
        #expect(try index.count(Person.self) == rows * 2 - 2)
    }

    /// The ids run out in the middle of a statement's rows: no record is stored, and the error
    /// says why, as when the record it ran out at was written alone.
    @Test func idsRunningOutInTheMiddleOfAStatementStoreNothing() throws {
        try run([person(Int64.max - 2, "High")])
        let error = try #require(throws: RecordStoreError.self) {
            try run((0..<rows).map { person(nil, "Late\($0)") })
        }
        #expect("\(error)".contains("no id is left for a person without one"))
        #expect(try index.count(Person.self) == 1)
        #expect(try index.names(for: "late").isEmpty)
        #expect(try index.check().isEmpty)
    }
}
