import CSQLite
import FTSearchSQLite
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// A database of schema 7, indexed and keyed with the folding of its time, is upgraded to fold
/// every script: its word indexes re-indexed with a progress line, its history keys folded
/// again and merged, its kept rankings and vocabularies dropped.
@Suite struct FoldingMigrationTests {
    /// Registers plain unicode61 under the `ftsearch` tokenizer's names, so that a database is
    /// built as a tokenizer that folds none of the new letters (Greek and Cyrillic accents,
    /// ǿ, ŋ, ɗ) would have built it.
    static func registerTokenizerThatFoldsLess(on database: Database) throws {
        let api = try #require(csqlite_fts5_api(database.handle))
        var context: UnsafeMutableRawPointer?
        var methods = fts5_tokenizer()
        try #require(api.pointee.xFindTokenizer(api, "unicode61", &context, &methods) == SQLITE_OK)
        for name in [FoldingTokenizer.name, FoldingTokenizer.trigramName] {
            try #require(
                api.pointee.xCreateTokenizer(api, name, context, &methods, nil) == SQLITE_OK)
        }
    }

    @Test func schemaSevenIsReindexedAndItsHistoryRekeyedWithProgress() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v7.sqlite")
        do {
            let database = try Database(path: path)
            try Self.registerTokenizerThatFoldsLess(on: database)
            try Schema.migrator.prefix(7).migrate(database)
            for (first, last) in [
                ("Ελένη", "Παπαδοπούλου"), ("Фёдор", "Ёлкин"), ("Ǿrjan", "Ŋiillas"),
            ] {
                try database.execute(
                    sql: """
                        INSERT INTO people(first_name, last_name, created_at, updated_at)
                        VALUES (?1, ?2, 0, 0)
                        """, arguments: [first, last])
            }
            try database.execute(
                sql: "INSERT INTO animals(name, created_at, updated_at) VALUES ('Ɗanjuma', 0, 0)")
            try database.execute(
                sql: """
                    INSERT INTO history(key, text, kind, result_count, use_count, first_used, last_used)
                    VALUES ('фёдор', 'Фёдор', 'all', 1, 2, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'),
                           ('федор', 'федор', 'all', 1, 3, '2025-06-01T00:00:00Z', '2026-03-01T00:00:00Z'),
                           ('ǿrjan', 'Ǿrjan', 'people', 1, 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
                    INSERT INTO result_cache(key, structure, total, entries) VALUES ('k', x'00', 1, x'00');
                    INSERT INTO vocabulary_cache(kind, structure, words) VALUES ('people', x'00', x'00');
                    """)
            // As the old tokenizer indexed them: the accents are still in the words.
            #expect(
                try database.fetchInt(
                    sql: "SELECT count(*) FROM people_fts WHERE people_fts MATCH 'ελενη'") == 0)
        }
        var reports: [ImportProgress] = []
        let index = try SearchIndex(path: path, onMigrationProgress: { reports.append($0) })
        #expect(try index.schemaVersion == Schema.migrator.latestVersion)
        #expect(reports.last?.recordsRead == 4)
        #expect(reports.last?.totalBytes == 4)
        #expect(try index.names(for: "ελενη παπαδοπουλου") == ["Ελένη Παπαδοπούλου"])
        #expect(try index.names(for: "федор елкин") == ["Фёдор Ёлкин"])
        #expect(try index.names(for: "orjan niillas") == ["Ǿrjan Ŋiillas"])
        #expect(try index.names(for: "danjuma") == ["Ɗanjuma"])
        #expect(
            try index.search(SearchRequest(text: "elen", match: .substring)).hits.isEmpty)
        #expect(
            try index.search(SearchRequest(text: "λεν", match: .substring)).hits.map(
                \.record.displayName) == ["Ελένη Παπαδοπούλου"])
        let entries = try index.history.entries(limit: nil)
        #expect(entries.map(\.text) == ["федор", "Ǿrjan"])
        #expect(entries.first?.useCount == 5)
        #expect(entries.first?.firstUsed.description.hasPrefix("2025-06-01") == true)
        try index.history.record("ORJAN", kinds: .people, resultCount: 1)
        #expect(try index.history.entries(limit: nil).count == 2)
        #expect(try index.check().isEmpty)
    }
}
