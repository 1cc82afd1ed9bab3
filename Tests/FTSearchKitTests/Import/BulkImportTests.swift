@testable import FTSearchFormats
import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// The shortcuts of a large import into an empty database: secondary indexes built at the end,
/// ids above the highest one taken as new; and never a rollback journal, whose exclusive lock
/// would make readers wait.
@Suite struct BulkImportTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
    }

    /// People as an input that claims to be large (what once took the rollback-journal path).
    private static func largeInput(_ people: [(Int?, String)]) -> [ImportSource] {
        let fields = people.map { id, name in
            (id.map { [("id", JSONValue.number(String($0)))] } ?? []) + [
                ("first_name", JSONValue.string(name))
            ]
        }
        return [
            ImportSource(
                path: "big.json", size: 64 << 20,
                reader: RecordList(fields: fields))
        ]
    }

    private var journalMode: String? {
        get throws { try index.database.fetchText(sql: "PRAGMA journal_mode") }
    }

    /// The journal mode of `index` while an import of `sources` indexes its rows.
    private func journalModeWhileIndexing(
        _ sources: sending [ImportSource], into index: SearchIndex
    ) throws -> [String?] {
        var modes: [String?] = []
        try index.importRecords(
            from: sources, options: ImportOptions(),
            onProgress: { progress in
                if progress.isIndexing {
                    modes.append(try? index.database.fetchText(sql: "PRAGMA journal_mode"))
                }
            })
        return modes
    }

    /// A rollback journal would take the exclusive lock when the import's pages spill from the
    /// cache, and every reader would wait for the import to end: the WAL always.
    @Test func largeFirstImportStaysInWALModeSoReadersNeverWait() throws {
        #expect(
            try journalModeWhileIndexing(Self.largeInput([(nil, "Ann")]), into: index) == ["wal"])
    }

    /// Its own secondary indexes too: one added to the records (as a user may add one on
    /// a column they filter by) is dropped while the rows are written, and built again after.
    @Test func largeFirstImportEndsInWALModeWithEverythingIndexed() throws {
        try index.database.execute(sql: "CREATE INDEX people_by_company ON people(company)")
        let summary = try index.importRecords(
            from: Self.largeInput([(nil, "Ann"), (7, "Bob"), (3, "Cy"), (7, "Bo")]),
            options: ImportOptions())
        #expect(summary.inserted == [.people: 3])
        #expect(summary.updated == [.people: 1])
        #expect(try journalMode == "wal")
        #expect(try index.names(for: "b") == ["Bo"])
        #expect(try index.check().isEmpty)
        let indexes = try index.database.fetchInt(
            sql:
                "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'people_by_company'"
        )
        #expect(indexes == 1)
    }

    @Test func failedLargeImportLeavesAnEmptyDatabaseInWALMode() throws {
        try index.database.execute(sql: "CREATE INDEX people_by_company ON people(company)")
        #expect(throws: ImportError.self) {
            // A person needs a name.
            try index.importRecords(
                from: Self.largeInput([(1, "Ann"), (nil, "")]), options: ImportOptions())
        }
        #expect(try journalMode == "wal")
        #expect(try index.search(SearchRequest(text: "")).total == 0)
        let indexes = try index.database.fetchInt(
            sql:
                "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'people_by_company'"
        )
        #expect(indexes == 1)
    }

    @Test func largeImportWhileAnotherConnectionIsOpenStaysInWALMode() throws {
        let other = try SearchIndex(path: index.path)
        #expect(try other.search(SearchRequest(text: "")).total == 0)
        try index.importRecords(from: Self.largeInput([(nil, "Ann")]), options: ImportOptions())
        #expect(try other.search(SearchRequest(text: "ann")).total == 1)
        #expect(try journalMode == "wal")
    }

    /// The index of a bulk import, and the substring index built by the first substring search,
    /// are written in few segments that need no merging, so they leave no free pages behind
    /// (with FTS5's default 1 MiB hash, these 25,000 people make more than 16 segments, which
    /// are merged, leaving free pages), and FTS5's settings are back to their defaults
    /// afterwards, in both indexes.
    @Test func bulkIndexingLeavesNoFreePagesAndRestoresTheSettings() throws {
        var random = SeededGenerator(seed: 11)
        let syllables = ["an", "bo", "cy", "da", "el", "fi", "go", "hu", "ir", "jo", "ka", "lu"]
        func word() -> String {
            (0..<5).map { _ in syllables.randomElement(using: &random)! }.joined()
        }
        let company = { (0..<12).map { _ in word() }.joined(separator: " ") }
        try index.importPeople((0..<25_000).map { _ in (word(), word(), company()) })
        #expect(try index.database.fetchInt(sql: "PRAGMA freelist_count") == 0)
        _ = try index.search(SearchRequest(text: "an", kinds: .people, match: .substring))
        try index.importPeople([("Late", "Comer", "")])
        #expect(try index.database.fetchInt(sql: "PRAGMA freelist_count") == 0)
        let sync = try IndexSync(kind: .people, in: index.database)
        #expect(sync.indexes == [.words(of: .people), .substrings(of: .people)])
        for fullTextIndex in sync.indexes {
            for (setting, _) in IndexSync.bulkSettings {
                let stored = try index.database.fetchInt(
                    sql: sync.storedValueSQL(of: setting, in: fullTextIndex))
                #expect(stored == setting.defaultValue, "\(setting) of \(fullTextIndex.name)")
            }
        }
    }
}
