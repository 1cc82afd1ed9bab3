import Testing
@testable import FTSearchKit

/// The shortcuts of a large import into an empty database: a rollback journal instead of the
/// WAL, secondary indexes built at the end, ids above the highest one taken as new.
@Suite struct BulkImportTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
    }

    /// People as an input that claims to be large enough for the rollback-journal path.
    private func largeInput(_ people: [(Int?, String)]) -> [ImportSource] {
        let fields = people.map { id, name in
            (id.map { [("id", JSONValue.number(String($0)))] } ?? []) + [
                ("first_name", JSONValue.string(name))
            ]
        }
        return [
            ImportSource(
                path: "big.json", size: Importer.rollbackJournalMinimumBytes,
                reader: RecordList(fields: fields))
        ]
    }

    private var journalMode: String? {
        get throws { try index.database.fetchText(sql: "PRAGMA journal_mode") }
    }

    @Test func largeFirstImportEndsInWALModeWithEverythingIndexed() throws {
        let summary = try index.importRecords(
            from: largeInput([(nil, "Ann"), (7, "Bob"), (3, "Cy"), (7, "Bo")]),
            options: ImportOptions())
        #expect(summary.inserted == [.people: 3])
        #expect(summary.updated == [.people: 1])
        #expect(try journalMode == "wal")
        #expect(try index.names(for: "b") == ["Bo"])
        #expect(try index.check().isEmpty)
        let indexes = try index.database.fetchInt(
            sql:
                "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'people_by_sort_name'"
        )
        #expect(indexes == 1)
    }

    @Test func failedLargeImportLeavesAnEmptyDatabaseInWALMode() throws {
        let sources = largeInput([(1, "Ann"), (nil, "")])  // a person needs a name
        #expect(throws: ImportError.self) {
            try index.importRecords(from: sources, options: ImportOptions())
        }
        #expect(try journalMode == "wal")
        #expect(try index.search(SearchRequest(text: "")).total == 0)
        let indexes = try index.database.fetchInt(
            sql:
                "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'people_by_sort_name'"
        )
        #expect(indexes == 1)
    }

    @Test func largeImportWhileAnotherConnectionIsOpenStaysInWALMode() throws {
        let other = try SearchIndex(path: index.path)
        #expect(try other.search(SearchRequest(text: "")).total == 0)
        try index.importRecords(from: largeInput([(nil, "Ann")]), options: ImportOptions())
        #expect(try other.search(SearchRequest(text: "ann")).total == 1)
        #expect(try journalMode == "wal")
    }
}
