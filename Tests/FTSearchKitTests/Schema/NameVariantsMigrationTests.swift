import FTSearchSQLite
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// A database of schema 16, indexed by a tokenizer without variant forms, is re-indexed with
/// a progress line: its names are then found as people type them.
@Suite struct NameVariantsMigrationTests {
    @Test func schemaSixteenIsReindexedWithProgress() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v16.sqlite")
        do {
            let database = try Database(path: path)
            try database.registerSearchExtensions()
            try FoldingMigrationTests.registerTokenizerThatFoldsLess(on: database)
            try Schema.migrator.prefix(16).migrate(database)
            for (first, last) in [
                ("Ivan", "Иванов"), ("Anna", "Müller"), ("Taras", "Демʼянюк"), ("فاطمة", "الحارثي"),
            ] {
                try database.execute(
                    sql: """
                        INSERT INTO people(first_name, last_name, created_at, updated_at)
                        VALUES (?1, ?2, 0, 0)
                        """, arguments: [first, last])
            }
            try database.execute(
                sql: "INSERT INTO animals(name, created_at, updated_at) VALUES ('Ålborg', 0, 0)")
            try database.execute(
                sql: """
                    INSERT INTO result_cache(key, structure, total, entries) VALUES ('k', x'00', 1, x'00');
                    INSERT INTO vocabulary_cache(kind, structure, words) VALUES ('people', x'00', x'00');
                    """)
            #expect(
                try database.fetchInt(
                    sql: "SELECT count(*) FROM people_fts WHERE people_fts MATCH '\"ivanov\"'")
                    == 0)
        }
        var reports: [ImportProgress] = []
        let index = try SearchIndex(path: path, onMigrationProgress: { reports.append($0) })
        #expect(try index.schemaVersion == Schema.migrator.latestVersion)
        #expect(reports.last?.recordsRead == 5)
        #expect(reports.last?.totalBytes == 5)
        #expect(try index.names(for: "ivanov") == ["Ivan Иванов"])
        #expect(try index.names(for: "anna mueller") == ["Anna Müller"])
        #expect(try index.names(for: "Дем'янюк") == ["Taras Демʼянюк"])
        #expect(try index.names(for: "فاطمه حارثي") == ["فاطمة الحارثي"])
        #expect(try index.names(for: "aalborg") == ["Ålborg"])
        #expect(try index.check().isEmpty)
    }
}
