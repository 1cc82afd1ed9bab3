@testable import FTSearchFormats
import FTSearchSQLite
import FTSearchTestSupport
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit

/// Writes of every kind through a pool's one writer — inserts, updates, imports, imports that
/// keep stored fields, an import large enough to make the sort code map, `rebuild` — from
/// several tasks, each write followed by a search, while other tasks search: every write must
/// succeed, every search must equal the reference plan on the same snapshot and find what was
/// just written, and `check` must be clean at the end.
///
/// Imports that keep stored fields once looked records up through the writer's connection from
/// the import's reading thread: the connection, used by two threads at once, failed every
/// write after it ("file is not a database") until the process restarted.
@Suite struct ConcurrentWritesTests {
    let directory: TemporaryDirectory
    let pool: SearchIndexPool

    init() throws {
        directory = try TemporaryDirectory()
        pool = try SearchIndexPool(path: directory.file("writes.sqlite"), maximumReaders: 4)
    }

    /// `count` people whose first names all hold `word`, for one import.
    static func people(_ word: String, count: Int, ids: ClosedRange<Int64>? = nil)
        -> [[(String, JSONValue)]]
    {
        (0..<count).map { number in
            var fields: [(String, JSONValue)] = [
                ("first_name", .string("\(word) \(number)")),
                ("last_name", .string("Lee\(number % 97)")), ("company", .string("Acme")),
            ]
            if let ids {
                fields.insert(("id", .number(String(ids.lowerBound + Int64(number)))), at: 0)
            }
            return fields
        }
    }

    /// The search for `word` on one snapshot, by the engine and by the reference plan.
    static func searchBothWays(_ word: String, in pool: SearchIndexPool) async throws
        -> (fast: SearchResults, reference: SearchResults)
    {
        let request = SearchRequest(text: word, kinds: .all, limit: 20)
        return try await pool.read { index in
            try index.database.inTransaction(.deferred) {
                (try index.search(request), try index.referenceSearch(request))
            }
        }
    }

    @Test func writesOfEveryKindBesideSearchesAcrossMapRebuilds() async throws {
        let rounds = TestSettings.iterations(12)
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<3 {
                group.addTask { [pool] in
                    var failures: [String] = []
                    var lastID: Int64 = 0
                    for round in 0..<rounds {
                        let word = "w\(writer)r\(round)"
                        switch round % 4 {
                        case 0:
                            lastID = try await pool.write {
                                try $0.insert(Person(firstName: word, lastName: "Lee")).id ?? 0
                            }
                        case 1:
                            // Keeps the stored fields: the last person inserted gets a company
                            // (and keeps the names), with 600 new people (several batches).
                            let fields =
                                [
                                    [
                                        ("id", JSONValue.number(String(lastID))),
                                        ("company", .string(word)),
                                    ]
                                ]
                                + Self.people(word, count: 600)
                            _ = try await pool.write { index in
                                try index.importRecords(
                                    from: [
                                        ImportSource(name: "b", reader: RecordList(fields: fields))
                                    ],
                                    options: ImportOptions(kind: .people, keepsStoredFields: true))
                            }
                            let id = lastID
                            let kept = try await pool.read { try $0.find(Person.self, id: id) }
                            if kept?.company != word
                                || kept?.firstName.hasPrefix("w\(writer)") != true
                            {
                                failures.append("\(word): merged \(String(describing: kept))")
                            }
                        case 2:
                            _ = try await pool.write { index in
                                try index.importRecords(
                                    from: [
                                        ImportSource(
                                            path: "p",
                                            reader: RecordList(
                                                fields: Self.people(word, count: 400)))
                                    ], options: ImportOptions(kind: .people))
                            }
                        default:
                            let id = lastID
                            _ = try await pool.write { index in
                                try index.update(Person.self, id: id) { $0.lastName = word }
                            }
                        }
                        let (fast, reference) = try await Self.searchBothWays(word, in: pool)
                        if fast != reference {
                            failures.append("\(word): differs from the reference")
                        }
                        if fast.total == 0 { failures.append("\(word): not found after its write") }
                    }
                    return failures
                }
            }
            // The map: an import of as many people as make one, then `rebuild`, which makes it
            // again, while the writers above write and search.
            group.addTask { [pool] in
                let count = SortCodeMap.minimumRecords + 1000
                _ = try await pool.write { index in
                    try index.importRecords(
                        from: [
                            ImportSource(
                                path: "big",
                                reader: RecordList(fields: Self.people("big", count: count)))
                        ],
                        options: ImportOptions(kind: .people))
                }
                let made = try await pool.read { try SortCodes.storedMap(in: $0.database) }
                try await pool.write { try $0.rebuild() }
                let remade = try await pool.read { try SortCodes.storedMap(in: $0.database) }
                var failures: [String] = []
                if made.isEmpty || remade.isEmpty || made.id == remade.id {
                    failures.append("no map made and made again (\(made.id), \(remade.id))")
                }
                for word in ["big", "lee1", "acme", "big 1000"] {
                    let (fast, reference) = try await Self.searchBothWays(word, in: pool)
                    if fast != reference { failures.append("\(word): differs from the reference") }
                }
                return failures
            }
            return try await group.reduce([], +)
        }
        #expect(failures == [])
        let problems = try await pool.read { try $0.check() }
        #expect(problems.isEmpty)
    }

    @Test func anImportThatKeepsStoredFieldsUpdatesOnlyTheFieldsItGives() async throws {
        let stored = try await pool.write { index in
            try index.insert(
                Person(
                    firstName: "Ann", lastName: "Lee", company: "Acme",
                    extra: [JSONMember(key: "age", value: .number("40"))]))
        }
        let id = try #require(stored.id)
        let given: [[(String, JSONValue)]] = [
            [("id", .string(String(id))), ("firstName", .string("Anna"))],
            [("id", .number(String(id))), ("city", .string("Oslo"))],
            // A new id needs a name, as any new record does.
            [("id", .number("9999")), ("city", .string("Bergen"))],
        ]
        let summary = try await pool.write { index in
            try index.importRecords(
                from: [ImportSource(name: "body", reader: RecordList(fields: given))],
                options: ImportOptions(kind: .people, skipInvalid: true, keepsStoredFields: true))
        }
        #expect(summary.updated[.people] == 2)
        #expect(summary.skipped == 1)
        let person = try #require(try await pool.read { try $0.find(Person.self, id: id) })
        #expect(person.firstName == "Anna")
        #expect(person.lastName == "Lee")
        #expect(person.company == "Acme")
        #expect(person.extra.map(\.key) == ["age", "city"])
        let replaced = try await pool.write { index in
            try index.importRecords(
                from: [ImportSource(name: "body", reader: RecordList(fields: [given[1]]))],
                options: ImportOptions(kind: .people, skipInvalid: true))
        }
        #expect(replaced.skipped == 1)  // replacing whole: no name
    }

    /// A connection SQLite called broken is replaced: one broken connection must not fail
    /// every later write until the process restarts.
    @Test func aWriterThatFailedAsBrokenIsReplacedAndTheNextWriteWorks() async throws {
        let first = try await pool.write { ObjectIdentifier($0) }
        await #expect(throws: SQLiteError.self) {
            try await pool.write { _ in
                throw SQLiteError(extendedResultCode: 26, message: "file is not a database")
            }
        }
        let added = try await pool.write { index in
            (ObjectIdentifier(index), try index.insert(Person(firstName: "Ann")).id)
        }
        #expect(added.0 != first)
        #expect(added.1 != nil)
        // Errors of the data leave the connection in place.
        await #expect(throws: RecordValidationError.self) {
            try await pool.write { _ in throw RecordValidationError("no name") }
        }
        #expect(try await pool.write { ObjectIdentifier($0) } == added.0)
    }
}
