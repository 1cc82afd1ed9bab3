@testable import FTSearchFormats
import Dispatch
import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

@Suite struct ImporterTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
    }

    private func person(
        _ id: Int?, _ first: String, _ last: String, _ extra: [(String, JSONValue)] = []
    )
        -> [(String, JSONValue)]
    {
        (id.map { [("id", JSONValue.number(String($0)))] } ?? [])
            + [("first_name", .string(first)), ("last_name", .string(last))] + extra
    }

    @discardableResult
    private func run(
        _ fields: [[(String, JSONValue)]], options: ImportOptions = ImportOptions(),
        onSkip: @escaping (RecordProblem) -> Void = { _ in }
    ) throws -> ImportSummary {
        try index.importRecords(
            from: [ImportSource(name: "in.json", reader: RecordList(fields: fields))],
            options: options, onSkip: onSkip)
    }

    @Test func insertsAndIndexesNewRecords() throws {
        let summary = try run([person(nil, "Ann", "Smith"), person(nil, "Bob", "Jones")])
        #expect(summary.inserted == [.people: 2])
        #expect(try index.names(for: "jo") == ["Bob Jones"])
        #expect(try index.check().isEmpty)
    }

    @Test func recordWithAKnownIDReplacesItAndTheIndexFollows() throws {
        try run([person(1, "Ann", "Smith"), person(2, "Bob", "Jones")])
        let summary = try run([
            person(1, "Annabel", "Smythe", [("email", .string("a@b.c"))]), person(3, "Cy", "Long"),
        ])
        #expect(summary.updated == [.people: 1])
        #expect(summary.inserted == [.people: 1])
        #expect(try index.names(for: "smith").isEmpty)
        #expect(try index.names(for: "smythe") == ["Annabel Smythe"])
        let hit = try #require(try index.search(SearchRequest(text: "smythe")).hits.first)
        #expect(hit.record.id == 1)
        #expect(hit.record.extra == [JSONMember(key: "email", value: .string("a@b.c"))])
        #expect(try index.check().isEmpty)
    }

    @Test func sameIDTwiceInOneImportKeepsTheLastVersion() throws {
        try run([person(5, "Old", "Name")])
        let summary = try run([
            person(5, "Mid", "Name"), person(5, "New", "Name"), person(9, "A", "B"),
            person(9, "C", "D"),
        ])
        #expect(summary.updated == [.people: 3])
        #expect(summary.inserted == [.people: 1])
        #expect(try index.names(for: "name") == ["New Name"])
        #expect(try index.names(for: "mid").isEmpty)
        #expect(try index.names(for: "c d") == ["C D"])
        #expect(try index.check().isEmpty)
    }
    /// A record without an id takes the next one; a later record naming that id is a record of
    /// its own, not a replacement: the first record moves to another id and both are kept.
    @Test func aRecordNamingAnIDGivenEarlierInTheSameImportKeepsBoth() throws {
        try run([person(5, "Five", "Known")])
        let summary = try run([
            person(nil, "Auto", "One"), person(6, "Six", "Named"), person(nil, "Auto", "Two"),
            person(8, "Eight", "Named"),
        ])
        #expect(summary.inserted == [.people: 4])
        #expect(summary.updated == [:])
        #expect(try index.names(for: "auto").sorted() == ["Auto One", "Auto Two"])
        let named = try index.search(SearchRequest(text: "named")).hits.compactMap(\.record.id)
        #expect(Set(named) == [6, 8])
        #expect(try index.count(Person.self) == 5)
        #expect(try index.check().isEmpty)
    }

    @Test func replaceEmptiesTheKindFirst() throws {
        try run([person(nil, "Ann", "Smith")])
        try index.importAnimals(["Rex"])
        let summary = try run(
            [person(nil, "Bob", "Jones")], options: ImportOptions(kind: .people, replace: true))
        #expect(summary.inserted == [.people: 1])
        #expect(try index.names(for: "", kinds: .people) == ["Bob Jones"])
        #expect(try index.names(for: "rex") == ["Rex"])
        #expect(try index.check().isEmpty)
    }

    @Test func anInvalidRecordLeavesTheDatabaseExactlyAsItWas() throws {
        try run([person(1, "Ann", "Smith")])
        let error = try #require(throws: ImportError.self) {
            try run([
                person(1, "Changed", "Name"), person(nil, "Bob", "Jones"),
                [("first_name", .array([]))],
            ])
        }
        #expect(
            error
                == .invalidRecord(
                    RecordProblem(
                        path: "in.json", line: 4,
                        reason: "field \"first_name\" must be text, found an array")))
        #expect(try index.names(for: "") == ["Ann Smith"])
        #expect(try index.check().isEmpty)
    }

    @Test func skipInvalidImportsTheRestAndReportsEachSkippedRecord() throws {
        var skipped: [RecordProblem] = []
        let summary = try run(
            [
                person(nil, "Ann", "Smith"),
                [("first_name", .string(" ")), ("company", .string("X"))],
                person(nil, "Bob", "Jones"),
            ],
            options: ImportOptions(skipInvalid: true), onSkip: { skipped.append($0) })
        #expect(summary.inserted == [.people: 2])
        #expect(summary.skipped == 1)
        #expect(skipped.map(\.description) == ["in.json:3: a person needs a first or last name"])
    }

    @Test func syntaxErrorsAreLocatedAndSkippableWhenRecoverable() throws {
        let bad = RecordSyntaxError(
            line: 3, column: 7, reason: "unexpected character", isRecoverable: true)
        let fatal = RecordSyntaxError(line: 9, reason: "unterminated string", isRecoverable: false)
        let good = SourceRecord(line: 2, fields: [JSONMember(key: "name", value: .string("Rex"))])
        var skipped: [String] = []
        let summary = try index.importRecords(
            from: [
                ImportSource(name: "a.ndjson", reader: RecordList([.success(good), .failure(bad)]))
            ],
            options: ImportOptions(skipInvalid: true), onSkip: { skipped.append($0.description) })
        #expect(summary.inserted == [.animals: 1])
        #expect(skipped == ["a.ndjson:3:7: unexpected character"])
        let error = try #require(throws: ImportError.self) {
            try index.importRecords(
                from: [
                    ImportSource(
                        path: "b.json", reader: RecordList([.success(good), .failure(fatal)]))
                ],
                options: ImportOptions(skipInvalid: true))
        }
        #expect(error.description == "b.json:9: unterminated string")
        #expect(try index.names(for: "rex") == ["Rex"])
    }

    @Test func kindIsInferredFromTheFirstRecordsFields() throws {
        let animals = try run([[("Name", .string("Rex")), ("species", .string("dog"))]])
        #expect(animals.inserted == [.animals: 1])
        let people = try run([[("Last Name", .string("Smith")), ("name", .string("nickname"))]])
        #expect(people.inserted == [.people: 1])
        let hit = try #require(try index.search(SearchRequest(text: "smith")).hits.first)
        #expect(hit.record.extra == [JSONMember(key: "name", value: .string("nickname"))])
    }

    @Test func recordsWithoutNameFieldsNeedAKind() throws {
        let error = try #require(throws: ImportError.self) {
            try run([[("species", .string("dog"))]])
        }
        #expect(error == .unknownKind(path: "in.json"))
        let withKind = try #require(throws: ImportError.self) {
            try run([[("species", .string("dog"))]], options: ImportOptions(kind: .animals))
        }
        #expect(withKind.description == "in.json:2: an animal needs a name")
    }

    @Test func sectionsGiveTheKind() throws {
        let reader = RecordList([
            .success(
                SourceRecord(
                    line: 2, section: "people",
                    fields: [JSONMember(key: "first_name", value: .string("Ann"))])),
            .success(
                SourceRecord(
                    line: 3, section: "Animals",
                    fields: [JSONMember(key: "name", value: .string("Rex"))])),
            .success(
                SourceRecord(
                    line: 4, section: "cars",
                    fields: [JSONMember(key: "name", value: .string("Herbie"))])),
        ])
        var skipped: [String] = []
        let summary = try index.importRecords(
            from: [ImportSource(name: "zoo.json", reader: reader)],
            options: ImportOptions(skipInvalid: true),
            onSkip: { skipped.append($0.description) })
        #expect(summary.inserted == [.people: 1, .animals: 1])
        #expect(
            skipped == ["zoo.json:4: unknown section \"cars\"; expected \"people\" or \"animals\""])
    }

    @Test func numbersAndBooleansInSearchableFieldsBecomeText() throws {
        try run([
            [
                ("first_name", .string("Agent")), ("last_name", .number("007")),
                ("company", .bool(true)),
            ]
        ])
        let hit = try #require(try index.search(SearchRequest(text: "007")).hits.first)
        #expect(hit.record.record.searchableValues == ["Agent", "007", "true"])
    }

    @Test func nonIntegerIDIsInvalid() throws {
        let error = try #require(throws: ImportError.self) {
            try run([[("id", .string("seven")), ("name", .string("Rex"))]])
        }
        #expect(error.description == "in.json:2: id must be an integer, found \"seven\"")
    }

    @Test func fieldsGivingTheSameValueTwiceAreInvalid() throws {
        let error = try #require(throws: ImportError.self) {
            try run([[("first_name", .string("A")), ("firstName", .string("B"))]])
        }
        #expect(
            error.description
                == "in.json:2: fields \"first_name\" and \"firstName\" both give the first name")
    }

    @Test func progressIsReportedWhileReadingThenOnceForIndexing() throws {
        var reports: [ImportProgress] = []
        var importer = Importer(
            database: index.database, options: ImportOptions(), timestamp: Timestamp.now())
        importer.progressInterval = 2
        importer.onProgress = { reports.append($0) }
        _ = try importer.run([
            ImportSource(
                path: "x", size: 5,
                reader: RecordList(fields: (0..<5).map { person(nil, "A\($0)", "B") }))
        ])
        #expect(reports.map(\.recordsRead) == [2, 4, 5])
        #expect(reports.map(\.isIndexing) == [false, false, true])
        #expect(reports.last?.totalBytes == 5)
    }

    // MARK: Reading ahead (records are read on a thread of their own, in batches)

    /// Records i = 0..<count: person i, with an extra field; every `invalidEvery`th has no name.
    private func manyPeople(_ count: Int, invalidEvery: Int) -> [[(String, JSONValue)]] {
        (0..<count).map { i in
            i % invalidEvery == invalidEvery - 1
                ? [("id", .number(String(i + 1))), ("company", .string("Nameless \(i)"))]
                : person(i + 1, "First\(i)", "Last\(i)", [("n", .number(String(i)))])
        }
    }

    @Test func recordsAndProblemsOfManyBatchesArriveInInputOrder() throws {
        let count = RecordReadAhead.batchSize * 5 + 17
        var skipped: [Int] = []
        let summary = try run(
            manyPeople(count, invalidEvery: 97), options: ImportOptions(skipInvalid: true),
            onSkip: { skipped.append($0.line) })
        let invalid = (0..<count).filter { $0 % 97 == 96 }
        #expect(skipped == invalid.map { $0 + 2 })
        #expect(summary.skipped == invalid.count)
        #expect(summary.inserted == [.people: count - invalid.count])
        for i in [0, 255, 256, 700, count - 1] where !invalid.contains(i) {
            let person = try #require(try index.find(Person.self, id: Int64(i + 1)))
            #expect(person.firstName == "First\(i)")
            #expect(person.lastName == "Last\(i)")
            #expect(person.extra == [JSONMember(key: "n", value: .number(String(i)))])
        }
        #expect(try index.check().isEmpty)
    }

    @Test func anInvalidRecordBatchesAfterTheFirstStoresNothing() throws {
        try run([person(nil, "Kept", "Before")])
        let error = try #require(throws: ImportError.self) {
            try run(manyPeople(RecordReadAhead.batchSize * 3, invalidEvery: 700))
        }
        #expect(error.description == "in.json:701: a person needs a first or last name")
        #expect(try index.count(Person.self) == 1)
        #expect(try index.names(for: "first").isEmpty)
    }

    @Test(.timeLimit(.minutes(1))) func anInvalidRecordEndsTheImportWithoutWaitingForMoreInput()
        throws
    {
        // The first record is invalid; the input then stalls (a request body whose client
        // stopped sending). The problem reaches the importer at once, not with a full batch.
        let input = StallingInput(first: "first_name,last_name\n,\n")
        defer { input.release() }
        let error = try #require(throws: ImportError.self) {
            try index.importRecords(
                from: [ImportSource(name: "stalled.csv", bytes: input, format: .csv)],
                options: ImportOptions())
        }
        #expect(error.description == "stalled.csv:2: a person needs a first or last name")
    }

    /// A write that fails (the database may not grow: `SQLITE_FULL`) ends the import at once,
    /// with batches still queued: the importer does not wait for the reading, even when the
    /// reading waits for input that does not come, and frees the queue without a trap
    /// (libdispatch traps on a semaphore freed below its initial value, as the queue's once
    /// was, when the reading ends); nothing is stored.
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aFailedWriteEndsTheImportWithoutWaitingForTheReading(inputStalls: Bool) throws {
        let rows = (0..<3000).map { "First\($0),Last\($0),Company number \($0) of many\n" }
        let input = StallingInput(
            first: "first_name,last_name,company\n" + rows.joined(), stalls: inputStalls)
        defer { input.release() }
        let pages = try #require(try index.database.fetchInt(sql: "PRAGMA page_count"))
        try index.database.execute(sql: "PRAGMA max_page_count = \(pages + 12)")
        var importer = Importer(
            database: index.database, options: ImportOptions(), timestamp: Timestamp.now())
        // The first report holds the writing up, so that the reading fills its queue before
        // the write that fails.
        importer.progressInterval = 100
        var reports = 0
        importer.onProgress = { _ in
            reports += 1
            if reports == 1 {
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(200))
            }
        }
        let error = try #require(throws: SQLiteError.self) {
            try importer.run([ImportSource(name: "big.csv", bytes: input, format: .csv)])
        }
        #expect(error.isDiskFull, "\(error)")
        try index.database.execute(sql: "PRAGMA max_page_count = 1073741823")
        #expect(try index.count(Person.self) == 0)
        #expect(try index.check().isEmpty)
    }
}

/// Serves its first bytes, then blocks until released (unless it does not stall), then ends.
private final class StallingInput: ByteSource, @unchecked Sendable {
    private var first: [UInt8]
    private let released = DispatchSemaphore(value: 0)

    init(first: String, stalls: Bool = true) {
        self.first = Array(first.utf8)
        if !stalls { released.signal() }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if !first.isEmpty {
            let count = min(first.count, buffer.count)
            buffer.copyBytes(from: first[..<count])
            first.removeFirst(count)
            return count
        }
        released.wait()
        released.signal()
        return 0
    }

    func release() { released.signal() }
}
