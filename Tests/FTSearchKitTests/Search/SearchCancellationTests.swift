import Synchronization
import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

@Suite struct SearchCancellationTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        // Ids far apart make the rowid span large enough for the ranking helper's two halves.
        let people: [(Int, String, String)] = [
            (1, "Ann", "Smith"), (2, "Anna", "Müller"), (150_000, "Annette", "Dubois"),
            (400_000, "Annabelle", "Lee"), (400_001, "Bob", "Stone"),
        ]
        let reader = RecordList(
            fields: people.map {
                [
                    ("id", .number(String($0.0))), ("first_name", .string($0.1)),
                    ("last_name", .string($0.2)),
                ]
            })
        try index.importRecords(
            from: [ImportSource(name: "people.json", reader: reader)], options: ImportOptions())
    }

    @Test func raisedFlagStopsTheSearchBeforeItStarts() throws {
        let cancellation = SearchCancellation()
        cancellation.cancel()
        #expect(throws: CancellationError.self) {
            try index.search(SearchRequest(text: "ann"), cancellation: cancellation)
        }
    }

    @Test(arguments: [true, false])
    func unraisedFlagGivesTheSameResultsOnBothPlans(readsDoclists: Bool) throws {
        // Through FTS5's cursor, the first one-word search creates the ranking helper. The
        // doclist reader ranks one-word searches on this connection.
        index.readsDoclists = readsDoclists
        for text in ["a", "ann", "ann", "a", "annette", "b"] {
            let expected = try index.search(SearchRequest(text: text))
            let results = try index.search(
                SearchRequest(text: text), cancellation: SearchCancellation())
            #expect(results == expected)
        }
        guard !readsDoclists else { return }
        guard case .open = index.rankingHelper else {
            Issue.record("the ranking helper was never used")
            return
        }
    }

    @Test func searchesAfterACancelledOneAreNotInterrupted() throws {
        let expected = try index.names(for: "a")  // creates the ranking helper
        #expect(expected.count == 4)
        let cancelled = SearchCancellation()
        cancelled.cancel()
        _ = try? index.search(SearchRequest(text: "a"), cancellation: cancelled)
        #expect(try index.names(for: "a") == expected)
        #expect(
            try index.search(SearchRequest(text: "a"), cancellation: SearchCancellation()).hits
                .map(\.record.displayName) == expected)
    }

    @Test func interruptCheckStopsAStatementMidway() throws {
        let database = try Database(path: ":memory:")
        let calls = Atomic<Int>(0)
        let sql = """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
            SELECT count(*) FROM n
            """
        let error = #expect(throws: SQLiteError.self) {
            try database.interruptingStatements(
                when: { calls.add(1, ordering: .relaxed).newValue > 5 }
            ) {
                try database.fetchInt(sql: sql)
            }
        }
        #expect(error?.code == .interrupted)
        #expect(calls.load(ordering: .relaxed) == 6)
        // Removed afterwards: the same statement now runs to the end.
        #expect(try database.fetchInt(sql: sql) == 1_000_000)
    }
}
