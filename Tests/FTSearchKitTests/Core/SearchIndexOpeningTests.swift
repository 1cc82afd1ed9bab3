import Foundation
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

@Suite struct SearchIndexOpeningTests {
    @Test func createsTheFileAndItsFolders() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a/b/c/index.sqlite")
        let index = try SearchIndex(path: path)
        #expect(try index.schemaVersion == Schema.migrator.latestVersion)
        #expect(try index.statistics().people == 0)
        #expect(try Database(path: path).fetchText(sql: "PRAGMA journal_mode") == "wal")
    }

    /// A new database gets its history file when the history is first used, not with the
    /// records: an import makes none.
    @Test func theHistoryFileIsMadeWhenFirstUsed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("index.sqlite")
        let index = try SearchIndex(path: path)
        try index.importPeople([("Ann", "Smith", "Acme")])
        #expect(!FileManager.default.fileExists(atPath: path + "-history"))
        try index.history.record("ann", kinds: .all, resultCount: 1)
        #expect(FileManager.default.fileExists(atPath: path + "-history"))
        #expect(try SearchIndex(path: path).history.entries().map(\.text) == ["ann"])
    }

    @Test func existingOnlyRefusesAMissingFile() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(throws: DatabaseOpenError.self) {
            try SearchIndex(path: directory.file("missing.sqlite"), mode: .existingOnly)
        }
        guard case .missing = error else { Issue.record("unexpected \(error)"); return }
    }

    @Test func refusesAFileThatIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "this is not a database, just text pretending\n", to: "text.sqlite")
        let error = try #require(throws: DatabaseOpenError.self) { try SearchIndex(path: path) }
        guard case .notADatabase = error else { Issue.record("unexpected \(error)"); return }
        #expect(error.description.contains("is not an ftsearch database"))
    }

    @Test func refusesAnotherProgramsDatabaseAndLeavesItAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("other.sqlite")
        try Database(path: path).execute(sql: "CREATE TABLE invoices(id INTEGER PRIMARY KEY)")
        #expect(throws: DatabaseOpenError.self) { try SearchIndex(path: path) }
        #expect(try Database(path: path).fetchInt(sql: "SELECT count(*) FROM sqlite_schema") == 1)
    }

    @Test func refusesANewerSchemaAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("newer.sqlite")
        _ = try SearchIndex(path: path)
        let newer = Schema.migrator.latestVersion + 1
        try Database(path: path).execute(sql: "PRAGMA user_version = \(newer)")
        let error = try #require(throws: DatabaseOpenError.self) { try SearchIndex(path: path) }
        guard case .newerSchema(let versionError) = error else {
            Issue.record("unexpected \(error)"); return
        }
        #expect(versionError.found == newer)
        #expect(try Database(path: path).fetchInt(sql: "PRAGMA user_version") == newer)
    }

    @Test func readOnlyRefusesAMissingFileAndCreatesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing.sqlite")
        #expect(throws: DatabaseOpenError.self) { try SearchIndex(path: path, mode: .readOnly) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func readOnlyReadsAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("index.sqlite")
        do {
            let index = try SearchIndex(path: path)
            try index.importPeople([("Ann", "Smith", "Annex"), ("Bob", "Jones", "Acme")])
            try index.history.record("ann smith", kinds: .all, resultCount: 1)
            try index.optimize()
        }
        let before = try directory.snapshot()
        let index = try SearchIndex(path: path, mode: .readOnly)
        #expect(index.readOnlyReason == .openedForReading)
        #expect(try index.suggestions(forPrefix: "an").map(\.text).first == "ann smith")
        #expect(try index.names(for: "ann") == ["Ann Smith"])
        #expect(throws: ReadOnlyDatabaseError.self) {
            try index.history.record("bob", kinds: .all, resultCount: 1)
        }
        #expect(try directory.snapshot() == before)
    }

    @Test func readOnlyNeverUpgradesAnOlderSchema() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("old.sqlite")
        _ = try SearchIndex(path: path)
        let older = Schema.migrator.latestVersion - 1
        try Database(path: path).execute(sql: "PRAGMA user_version = \(older)")
        let error = try #require(throws: ReadOnlyDatabaseError.self) {
            try SearchIndex(path: path, mode: .readOnly)
        }
        #expect(error.reason == .openedForReading)
        #expect(try Database(path: path).fetchInt(sql: "PRAGMA user_version") == older)
    }

    @Test func upgradesAnOlderSchemaAndKeepsTheData() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("old.sqlite")
        let version2 = Schema.migrator.prefix(2)
        let database = try Database(path: path)
        try version2.migrate(database)
        try database.execute(
            sql: """
                INSERT INTO people(first_name, last_name, created_at, updated_at)
                VALUES ('Ann', 'Smith', '2026-01-01', '2026-01-01')
                """)
        let index = try SearchIndex(path: path)
        #expect(try index.schemaVersion == Schema.migrator.latestVersion)
        #expect(try index.names(for: "ann") == ["Ann Smith"])
        #expect(try index.names(for: "") == ["Ann Smith"])
        #expect(try index.check().isEmpty)
    }

    @Test func reopeningKeepsTheData() throws {
        let directory = try TemporaryDirectory()
        try SearchIndex.temporary(in: directory).importPeople([("Ann", "Smith", "Annex")])
        let reopened = try SearchIndex(path: directory.file("test.sqlite"), mode: .existingOnly)
        #expect(try reopened.names(for: "ann") == ["Ann Smith"])
    }

    @Test(
        arguments: [
            (nil, ["FTSEARCH_DB": "/x/env.sqlite", "HOME": "/home/u"], "/x/env.sqlite"),
            ("/explicit.sqlite", ["FTSEARCH_DB": "/x/env.sqlite"], "/explicit.sqlite"),
            (nil, ["XDG_DATA_HOME": "/data", "HOME": "/home/u"], "/data/ftsearch/ftsearch.sqlite"),
            (nil, ["HOME": "/home/u"], "/home/u/.local/share/ftsearch/ftsearch.sqlite"),
            (
                nil, ["XDG_DATA_HOME": "relative", "HOME": "/home/u"],
                "/home/u/.local/share/ftsearch/ftsearch.sqlite"
            ),
        ] as [(String?, [String: String], String)])
    func resolvesTheDatabaseLocation(
        explicit: String?, environment: [String: String], expected: String
    ) {
        #expect(
            DatabaseLocation.resolve(explicitPath: explicit, environment: environment) == expected)
    }
}
