import FTSearchSQLite

/// The database schema, as an ordered list of migrations, and the schema a new database is
/// created with at once (``createNewDatabase(_:)``).
///
/// **Shipped migrations are history, never edited**: each is literal SQL as it shipped (or code
/// that calls nothing outside this file), and a change is a new migration at the end, and the
/// same change in ``createNewDatabase(_:)``. `FrozenMigrationTests` builds a database at every version
/// and compares its schema with the dump committed for that version, and a new database's with
/// the latest. (Migration 4 as first shipped also built the substring
/// indexes; it was changed to stop before any release used migration 6, which drops them
/// whether they exist or not, so every upgrade path ends at the same schema.)
///
/// - `people` and `animals` hold the records; searchable columns are plain text (empty when
///   absent), every other input field is kept in `extra`, a JSON object; `created_at` and
///   `updated_at` are integer milliseconds since 1970 (see ``StoredTime``).
/// - `people_fts` and `animals_fts` index the searchable columns' words; `people_substring` and
///   `animals_substring` their trigrams, once the first substring search of the kind has built
///   them (see ``IndexSync``, ``FullTextIndex``, ``IndexBuilder``).
/// - `people_fts_sizes` and `animals_fts_sizes` keep each word-indexed row's token count in a
///   byte (see ``RowSizes``).
/// - `people_sort_codes` and `animals_sort_codes` keep a three-byte code of each record's sort
///   name, so that big groups of equal scores are ordered by name without reading every name
///   (see ``SortCodes``); `sort_code_map` the boundaries the codes are made with, once the
///   records are many (see ``SortCodeMap``).
/// - `vocabulary_cache` keeps each word index's vocabulary for typo-tolerant matching (see
///   ``Vocabulary``), `result_cache` the rankings of expensive searches (see ``ResultCache``).
/// - `history` holds one row per normalized search; `people_vocabulary` and
///   `animals_vocabulary` list the indexed words (https://sqlite.org/fts5.html#the_fts5vocab_virtual_table_module).
enum Schema {
    static let migrator: Migrator = {
        var migrator = Migrator()
        migrator.registerMigration("Create people, animals and their full-text indexes") {
            database in
            try database.execute(
                sql: """
                    CREATE TABLE people (
                        id INTEGER PRIMARY KEY,
                        first_name TEXT NOT NULL DEFAULT '',
                        last_name TEXT NOT NULL DEFAULT '',
                        company TEXT NOT NULL DEFAULT '',
                        extra TEXT NOT NULL DEFAULT '{}',
                        created_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL
                    );
                    CREATE INDEX people_by_name ON people(last_name COLLATE NOCASE, first_name COLLATE NOCASE);
                    CREATE TABLE animals (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL DEFAULT '',
                        extra TEXT NOT NULL DEFAULT '{}',
                        created_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL
                    );
                    CREATE INDEX animals_by_name ON animals(name COLLATE NOCASE);
                    CREATE VIRTUAL TABLE people_fts USING fts5(
                        first_name, last_name, company,
                        content='people', content_rowid='id',
                        tokenize='unicode61 remove_diacritics 2', prefix='1 2 3'
                    );
                    CREATE TRIGGER people_index_insert AFTER INSERT ON people BEGIN
                        INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                    END;
                    CREATE TRIGGER people_index_delete AFTER DELETE ON people BEGIN
                        INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                    END;
                    CREATE TRIGGER people_index_update AFTER UPDATE OF first_name, last_name, company ON people BEGIN
                        INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                        INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                    END;
                    CREATE VIRTUAL TABLE animals_fts USING fts5(
                        name,
                        content='animals', content_rowid='id',
                        tokenize='unicode61 remove_diacritics 2', prefix='1 2 3'
                    );
                    CREATE TRIGGER animals_index_insert AFTER INSERT ON animals BEGIN
                        INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                    END;
                    CREATE TRIGGER animals_index_delete AFTER DELETE ON animals BEGIN
                        INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                    END;
                    CREATE TRIGGER animals_index_update AFTER UPDATE OF name ON animals BEGIN
                        INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                        INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                    END;
                    """)
        }
        migrator.registerMigration("Create the search history and the index vocabularies") {
            database in
            try database.execute(
                sql: """
                    CREATE TABLE history (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        text TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        result_count INTEGER NOT NULL,
                        use_count INTEGER NOT NULL DEFAULT 1,
                        first_used TEXT NOT NULL,
                        last_used TEXT NOT NULL
                    );
                    CREATE INDEX history_by_last_use ON history(last_used);
                    CREATE VIRTUAL TABLE people_vocabulary USING fts5vocab(people_fts, 'row');
                    CREATE VIRTUAL TABLE animals_vocabulary USING fts5vocab(animals_fts, 'row');
                    """)
        }
        migrator.registerMigration("Index people by the name they sort by") { database in
            // Records sort by `last_name || ' ' || first_name` (see SortName); an index on that
            // expression serves the first page of an empty search without sorting every row,
            // where the old two-column index served no query at all.
            try database.execute(
                sql: """
                    DROP INDEX people_by_name;
                    CREATE INDEX people_by_sort_name ON people((last_name || ' ' || first_name) COLLATE NOCASE);
                    """)
        }
        migrator.registerMigration(
            "Index with ftsearch's folding tokenizer and add the vocabulary cache"
        ) { database, onProgress in
            // The word indexes change tokenizer (ø, ł, ß, æ... now fold), so they are rebuilt;
            // the fts5vocab tables name their index and need no change.
            try database.execute(
                sql: """
                    DROP TRIGGER people_index_insert;
                    DROP TRIGGER people_index_delete;
                    DROP TRIGGER people_index_update;
                    DROP TABLE people_fts;
                    DROP TRIGGER animals_index_insert;
                    DROP TRIGGER animals_index_delete;
                    DROP TRIGGER animals_index_update;
                    DROP TABLE animals_fts;
                    CREATE VIRTUAL TABLE people_fts USING fts5(
                        first_name, last_name, company,
                        content='people', content_rowid='id',
                        tokenize='ftsearch', prefix='1 2 3'
                    );
                    CREATE TRIGGER people_index_insert AFTER INSERT ON people BEGIN
                        INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                    END;
                    CREATE TRIGGER people_index_delete AFTER DELETE ON people BEGIN
                        INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                    END;
                    CREATE TRIGGER people_index_update AFTER UPDATE OF first_name, last_name, company ON people BEGIN
                        INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                        INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                    END;
                    CREATE VIRTUAL TABLE animals_fts USING fts5(
                        name,
                        content='animals', content_rowid='id',
                        tokenize='ftsearch', prefix='1 2 3'
                    );
                    CREATE TRIGGER animals_index_insert AFTER INSERT ON animals BEGIN
                        INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                    END;
                    CREATE TRIGGER animals_index_delete AFTER DELETE ON animals BEGIN
                        INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                    END;
                    CREATE TRIGGER animals_index_update AFTER UPDATE OF name ON animals BEGIN
                        INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                        INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                    END;
                    CREATE TABLE vocabulary_cache (
                        kind TEXT PRIMARY KEY,
                        structure BLOB NOT NULL,
                        words BLOB NOT NULL
                    );
                    """)
            try reindexEveryRowForMigration4(database, onProgress: onProgress)
        }
        migrator.registerMigration("Keep the rankings of expensive searches") { database in
            try database.execute(
                sql: """
                    CREATE TABLE result_cache (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        structure BLOB NOT NULL,
                        total INTEGER NOT NULL,
                        entries BLOB NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("Build the substring indexes on first use, not at import") {
            database in
            // The substring (trigram) index serves only `--match substring`, yet building it at
            // every import took two thirds of the import time and a third of the database at
            // 1M people (22 s of 33 s, 162 of 459 MiB). It is now built by the first substring
            // search of each kind (see IndexBuilder); databases that have it from schemas 4 and 5
            // drop it (its pages are reused by later writes; `ftsearch optimize` gives them back
            // to the file system), and their triggers go back to keeping the word index only.
            // Kept rankings of substring searches name the dropped indexes' structure records;
            // the rebuilt index, made from records changed meanwhile, could repeat one.
            try database.execute(
                sql: """
                    DROP TRIGGER people_index_insert;
                    DROP TRIGGER people_index_delete;
                    DROP TRIGGER people_index_update;
                    DROP TABLE IF EXISTS people_substring;
                    CREATE TRIGGER people_index_insert AFTER INSERT ON people BEGIN
                        INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                    END;
                    CREATE TRIGGER people_index_delete AFTER DELETE ON people BEGIN
                        INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                    END;
                    CREATE TRIGGER people_index_update AFTER UPDATE OF first_name, last_name, company ON people BEGIN
                        INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                        INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                    END;
                    DROP TRIGGER animals_index_insert;
                    DROP TRIGGER animals_index_delete;
                    DROP TRIGGER animals_index_update;
                    DROP TABLE IF EXISTS animals_substring;
                    CREATE TRIGGER animals_index_insert AFTER INSERT ON animals BEGIN
                        INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                    END;
                    CREATE TRIGGER animals_index_delete AFTER DELETE ON animals BEGIN
                        INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                    END;
                    CREATE TRIGGER animals_index_update AFTER UPDATE OF name ON animals BEGIN
                        INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                        INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                    END;
                    DELETE FROM result_cache;
                    """)
        }
        migrator.registerMigration("Store the records' times as integer milliseconds") {
            database in
            // 6 bytes a time instead of 24: 46 MiB less for a million people. SQLite's
            // procedure for what ALTER TABLE cannot do
            // (https://sqlite.org/lang_altertable.html#otheralter): a new table filled from the
            // old one's rows, keeping ids (so the external-content indexes stay exact), the old
            // one dropped, the new one renamed, and the table's indexes and triggers made again
            // from their own SQL (a substring index built on first use at schema 6 has triggers
            // of its own).
            let milliseconds = { (column: String) in
                """
                CASE WHEN typeof(\(column)) = 'text'
                          AND \(column) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'
                          AND julianday(\(column)) IS NOT NULL
                     THEN CAST(round((julianday(\(column)) - 2440587.5) * 86400000) AS INTEGER)
                     ELSE \(column) END
                """
            }
            let tables = [
                (
                    "people",
                    "id INTEGER PRIMARY KEY, first_name TEXT NOT NULL DEFAULT '', "
                        + "last_name TEXT NOT NULL DEFAULT '', company TEXT NOT NULL DEFAULT '', "
                        + "extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL, "
                        + "updated_at INTEGER NOT NULL",
                    "id, first_name, last_name, company, extra"
                ),
                (
                    "animals",
                    "id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', "
                        + "extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL, "
                        + "updated_at INTEGER NOT NULL",
                    "id, name, extra"
                ),
            ]
            for (table, columns, kept) in tables {
                var dependents: [String] = []
                try database.makeStatement(
                    sql: """
                        SELECT sql FROM sqlite_schema
                        WHERE type IN ('index', 'trigger') AND tbl_name = ?1 AND sql IS NOT NULL
                        ORDER BY type, name
                        """
                ).forEachRow([table]) { row in
                    if let sql = row.text(at: 0) { dependents.append(sql) }
                }
                try database.execute(
                    sql: """
                        CREATE TABLE \(table)_rebuilt (\(columns));
                        INSERT INTO \(table)_rebuilt SELECT \(kept), \(milliseconds("created_at")),
                            \(milliseconds("updated_at")) FROM \(table);
                        DROP TABLE \(table);
                        ALTER TABLE \(table)_rebuilt RENAME TO \(table);
                        """)
                for sql in dependents {
                    try database.execute(sql: sql)
                }
            }
        }
        migrator.registerMigration(
            "Fold accents in every script and the Latin letters without a decomposition"
        ) { database, onProgress in
            // The tokenizer now folds Greek, Cyrillic and the other scripts' accents, the Latin
            // letters without a decomposition (ǿ, ŋ, ɗ, ǆ...) and keeps combining marks inside
            // words, so its tokens change: the word indexes are emptied and filled again from
            // their records (with migration 4's re-indexing and its progress), a substring index
            // built on first use is dropped to be built again by the next substring search (as
            // migration 6 did, its triggers back to the word index's), kept rankings and
            // vocabularies made of the old tokens are dropped, and history keys are folded
            // again (entries that now share a key become one).
            try database.execute(
                sql: """
                    DROP TRIGGER people_index_insert;
                    DROP TRIGGER people_index_delete;
                    DROP TRIGGER people_index_update;
                    DROP TABLE IF EXISTS people_substring;
                    CREATE TRIGGER people_index_insert AFTER INSERT ON people BEGIN
                        INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                    END;
                    CREATE TRIGGER people_index_delete AFTER DELETE ON people BEGIN
                        INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                    END;
                    CREATE TRIGGER people_index_update AFTER UPDATE OF first_name, last_name, company ON people BEGIN
                        INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                        INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                    END;
                    DROP TRIGGER animals_index_insert;
                    DROP TRIGGER animals_index_delete;
                    DROP TRIGGER animals_index_update;
                    DROP TABLE IF EXISTS animals_substring;
                    CREATE TRIGGER animals_index_insert AFTER INSERT ON animals BEGIN
                        INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                    END;
                    CREATE TRIGGER animals_index_delete AFTER DELETE ON animals BEGIN
                        INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                    END;
                    CREATE TRIGGER animals_index_update AFTER UPDATE OF name ON animals BEGIN
                        INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                        INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                    END;
                    DELETE FROM result_cache;
                    DELETE FROM vocabulary_cache;
                    INSERT INTO people_fts(people_fts) VALUES ('delete-all');
                    INSERT INTO animals_fts(animals_fts) VALUES ('delete-all');
                    """)
            try reindexEveryRowForMigration4(database, onProgress: onProgress)
            try refoldHistoryKeysForMigration8(database)
        }
        migrator.registerMigration(
            "Keep the search history in its own file, which no import or edit ever locks"
        ) { database in
            // The history moves to `<database>-history` (see HistoryFile), with its ids, its
            // counts and its times. The copy commits in that file before this migration does:
            // when a crash comes between, this migration runs again and copies nothing twice
            // (every id and key that is there already is left as it is).
            let file =
                try database.fetchText(
                    sql: "SELECT file FROM pragma_database_list WHERE name = 'main'") ?? ""
            if !file.isEmpty {
                let history = try Database(path: file + "-history")
                try history.execute(sql: "PRAGMA journal_mode = WAL")
                if try Migrator.version(of: history) == 0 {
                    try Schema.historyMigrator.prefix(1).migrate(history)
                }
                let columns = "id, key, text, kind, result_count, use_count, first_used, last_used"
                let rows = try database.makeStatement(sql: "SELECT \(columns) FROM history")
                let insert = try history.makeStatement(
                    sql: """
                        INSERT INTO history(\(columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                        ON CONFLICT DO NOTHING
                        """)
                try history.inTransaction(.immediate) {
                    try rows.forEachRow { row in
                        try insert.execute((0..<8).map { row.value(at: $0) })
                    }
                }
            }
            try database.execute(sql: "DROP TABLE history")
        }
        migrator.registerMigration(
            "Keep each row's token count in one byte, so that ranking reads no b-tree per row"
        ) { database in
            // Ranking read each candidate row's size from FTS5's docsize table, a b-tree seek
            // per row and most of a short prefix's first search. The sizes tables (see
            // RowSizes) keep it in a byte per row, 2,048 rows a block; the triggers write the
            // byte of each row they index (255 when a column has 128 tokens or more, or the
            // total is 255 or more: then the docsize table is read). As migrations 6 and 8 did
            // to replace the triggers, a substring index built on first use is dropped, to be
            // built again (with these triggers) by the next substring search, and the rankings
            // kept of substring searches with it.
            try database.execute(
                sql: """
                    DROP TRIGGER people_index_insert;
                    DROP TRIGGER people_index_delete;
                    DROP TRIGGER people_index_update;
                    DROP TABLE IF EXISTS people_substring;
                    CREATE TABLE people_fts_sizes (block INTEGER PRIMARY KEY, sizes BLOB NOT NULL);
                    CREATE TRIGGER people_index_insert AFTER INSERT ON people BEGIN
                        INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                        INSERT INTO people_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM people_fts_sizes WHERE block = new.id >> 11);
                        UPDATE people_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 3 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 3, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 4, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 5, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 6, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM people_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
                    END;
                    CREATE TRIGGER people_index_delete AFTER DELETE ON people BEGIN
                        INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                    END;
                    CREATE TRIGGER people_index_update AFTER UPDATE OF first_name, last_name, company ON people BEGIN
                        INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                        INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                        INSERT INTO people_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM people_fts_sizes WHERE block = new.id >> 11);
                        UPDATE people_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 3 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 3, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 4, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 5, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 6, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM people_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
                    END;
                    DROP TRIGGER animals_index_insert;
                    DROP TRIGGER animals_index_delete;
                    DROP TRIGGER animals_index_update;
                    DROP TABLE IF EXISTS animals_substring;
                    CREATE TABLE animals_fts_sizes (block INTEGER PRIMARY KEY, sizes BLOB NOT NULL);
                    CREATE TRIGGER animals_index_insert AFTER INSERT ON animals BEGIN
                        INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                        INSERT INTO animals_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM animals_fts_sizes WHERE block = new.id >> 11);
                        UPDATE animals_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 1 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM animals_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
                    END;
                    CREATE TRIGGER animals_index_delete AFTER DELETE ON animals BEGIN
                        INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                    END;
                    CREATE TRIGGER animals_index_update AFTER UPDATE OF name ON animals BEGIN
                        INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                        INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                        INSERT INTO animals_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM animals_fts_sizes WHERE block = new.id >> 11);
                        UPDATE animals_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 1 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM animals_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
                    END;
                    DELETE FROM result_cache;
                    """)
            try fillRowSizesForMigration10(database)
        }
        migrator.registerMigration(
            "Log the changes to searchable fields, to bring kept rankings up to date"
        ) { database in
            // A kept ranking was dropped by any write (its indexes' structure records change),
            // and the next search of its text paid a first search again. The log (see
            // SearchChanges) tells which records changed since a ranking was kept, and what they
            // were before; a kept ranking now keeps its frontier (see RankingFrontier) too. The
            // log's triggers are triggers of their own, beside the index triggers, so those and
            // the substring indexes stay as they are.
            try database.execute(
                sql: """
                    CREATE TABLE search_changes (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        kind TEXT NOT NULL,
                        id INTEGER,
                        existed INTEGER NOT NULL,
                        field1 TEXT,
                        field2 TEXT,
                        field3 TEXT
                    );
                    CREATE TRIGGER people_log_insert AFTER INSERT ON people BEGIN
                        INSERT INTO search_changes(kind, id, existed) VALUES ('people', new.id, 0);
                        DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
                    END;
                    CREATE TRIGGER people_log_delete AFTER DELETE ON people BEGIN
                        INSERT INTO search_changes(kind, id, existed, field1, field2, field3) VALUES ('people', old.id, 1, old.first_name, old.last_name, old.company);
                        DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
                    END;
                    CREATE TRIGGER people_log_update AFTER UPDATE OF first_name, last_name, company ON people BEGIN
                        INSERT INTO search_changes(kind, id, existed, field1, field2, field3) VALUES ('people', old.id, 1, old.first_name, old.last_name, old.company);
                        INSERT INTO search_changes(kind, id, existed) SELECT 'people', new.id, 0 WHERE new.id <> old.id;
                        DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
                    END;
                    CREATE TRIGGER animals_log_insert AFTER INSERT ON animals BEGIN
                        INSERT INTO search_changes(kind, id, existed) VALUES ('animals', new.id, 0);
                        DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
                    END;
                    CREATE TRIGGER animals_log_delete AFTER DELETE ON animals BEGIN
                        INSERT INTO search_changes(kind, id, existed, field1) VALUES ('animals', old.id, 1, old.name);
                        DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
                    END;
                    CREATE TRIGGER animals_log_update AFTER UPDATE OF name ON animals BEGIN
                        INSERT INTO search_changes(kind, id, existed, field1) VALUES ('animals', old.id, 1, old.name);
                        INSERT INTO search_changes(kind, id, existed) SELECT 'animals', new.id, 0 WHERE new.id <> old.id;
                        DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
                    END;
                    ALTER TABLE result_cache ADD COLUMN frontier BLOB;
                    DELETE FROM result_cache;
                    """)
        }
        migrator.registerMigration(
            "Keep the first bytes of each record's sort name, so that ties are ordered without reading every name"
        ) { database in
            // A deep page (or a short prefix's first page) inside a big group of equal scores
            // read every row's name from the records, a b-tree seek a row: 73,000 of them for
            // `a` at offset 350,000 of a million people. The sort codes (see SortCodes) keep
            // each record's first three folded bytes, 512 rows a block, and only the rows whose
            // codes tie with the page's edges have their names read. The triggers are their
            // own, beside the index and log triggers, which stay as they are.
            try database.execute(
                sql: """
                    CREATE TABLE people_sort_codes (block INTEGER PRIMARY KEY, codes BLOB NOT NULL);
                    CREATE TRIGGER people_sort_code_insert AFTER INSERT ON people BEGIN
                        INSERT INTO people_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM people_sort_codes WHERE block = new.id >> 9);
                        UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.last_name || ' ' || new.first_name) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
                    END;
                    CREATE TRIGGER people_sort_code_update AFTER UPDATE OF id, last_name, first_name ON people BEGIN
                        INSERT INTO people_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM people_sort_codes WHERE block = new.id >> 9);
                        UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.last_name || ' ' || new.first_name) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
                    END;
                    CREATE TABLE animals_sort_codes (block INTEGER PRIMARY KEY, codes BLOB NOT NULL);
                    CREATE TRIGGER animals_sort_code_insert AFTER INSERT ON animals BEGIN
                        INSERT INTO animals_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM animals_sort_codes WHERE block = new.id >> 9);
                        UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.name) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
                    END;
                    CREATE TRIGGER animals_sort_code_update AFTER UPDATE OF id, name ON animals BEGIN
                        INSERT INTO animals_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM animals_sort_codes WHERE block = new.id >> 9);
                        UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.name) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
                    END;
                    """)
            try fillSortCodesForMigration12(database)
        }
        migrator.registerMigration(
            "List records in name order from the sort codes, and drop the sort-name indexes"
        ) { database in
            // The sort-name indexes took 22.8 MiB of a million people's 267 and a tenth of an
            // import's time to build, and since migration 12 the sort codes order ranked pages
            // without them. Listing everything needs to know which ids have a record, so a code
            // is now zero exactly where there is none: deleting a record, or moving it to
            // another id, zeroes its code, and `ftsearch_sort_code` gives an empty name 1
            // instead of 0 (and a name stored as a blob the highest code). The codes are
            // filled again as migration 12 filled them, with the function as it now is.
            try database.execute(
                sql: """
                    DROP INDEX people_by_sort_name;
                    DROP INDEX animals_by_name;
                    DROP TRIGGER people_sort_code_update;
                    CREATE TRIGGER people_sort_code_update AFTER UPDATE OF id, last_name, first_name ON people BEGIN
                        UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (old.id & 511) * 3) || X'000000' || substr(codes, (old.id & 511) * 3 + 4) AS BLOB) WHERE block = old.id >> 9 AND old.id <> new.id;
                        INSERT INTO people_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM people_sort_codes WHERE block = new.id >> 9);
                        UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.last_name || ' ' || new.first_name) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
                    END;
                    CREATE TRIGGER people_sort_code_delete AFTER DELETE ON people BEGIN
                        UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (old.id & 511) * 3) || X'000000' || substr(codes, (old.id & 511) * 3 + 4) AS BLOB) WHERE block = old.id >> 9;
                    END;
                    DROP TRIGGER animals_sort_code_update;
                    CREATE TRIGGER animals_sort_code_update AFTER UPDATE OF id, name ON animals BEGIN
                        UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (old.id & 511) * 3) || X'000000' || substr(codes, (old.id & 511) * 3 + 4) AS BLOB) WHERE block = old.id >> 9 AND old.id <> new.id;
                        INSERT INTO animals_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM animals_sort_codes WHERE block = new.id >> 9);
                        UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.name) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
                    END;
                    CREATE TRIGGER animals_sort_code_delete AFTER DELETE ON animals BEGIN
                        UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (old.id & 511) * 3) || X'000000' || substr(codes, (old.id & 511) * 3 + 4) AS BLOB) WHERE block = old.id >> 9;
                    END;
                    DELETE FROM people_sort_codes;
                    DELETE FROM animals_sort_codes;
                    """)
            try fillSortCodesForMigration12(database)
        }
        migrator.registerMigration("Index a record again when another program changes its id") {
            database in
            // The index and change-log triggers fired on writes to the searchable columns
            // only, so `UPDATE people SET id = ...` (as another program may write) left the
            // record in the word index, and in a substring index, under its old id, and told
            // kept rankings nothing; the sort codes' triggers followed it. Each kind's update
            // triggers are made again as they are, with `id` among the columns they fire on:
            // the index trigger holds one statement per index the database has, so their
            // text is read rather than written out here.
            for (table, columns) in [
                ("people", "first_name, last_name, company"), ("animals", "name"),
            ] {
                for name in ["\(table)_index_update", "\(table)_log_update"] {
                    guard
                        let sql = try database.fetchText(
                            sql: "SELECT sql FROM sqlite_schema WHERE name = ?1", arguments: [name])
                    else { continue }
                    try database.execute(
                        sql: "DROP TRIGGER \(name);\n"
                            + sql.replacing(
                                "AFTER UPDATE OF \(columns) ON \(table)",
                                with: "AFTER UPDATE OF id, \(columns) ON \(table)",
                                maxReplacements: 1) + ";")
                }
            }
        }
        migrator.registerMigration(
            "Code sort names by where they fall among boundaries sampled from the records, so that one last name's many people get many codes"
        ) { database in
            // The first three bytes of a sort name cannot tell apart the people of one last
            // name, or any two whose last names begin alike: a three-letter search's equal
            // scores read every one of their names. The database's map (see SortCodeMap) is
            // made with the codes when the records are many; the triggers now code each row
            // with the map (none yet, which codes as before, so the codes stay as they are).
            try database.execute(
                sql: """
                    CREATE TABLE sort_code_map (id INTEGER PRIMARY KEY, records INTEGER NOT NULL, boundaries BLOB NOT NULL);
                    DROP TRIGGER people_sort_code_insert;
                    DROP TRIGGER people_sort_code_update;
                    CREATE TRIGGER people_sort_code_insert AFTER INSERT ON people BEGIN
                        INSERT INTO people_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM people_sort_codes WHERE block = new.id >> 9);
                        UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.last_name || ' ' || new.first_name, (SELECT id FROM sort_code_map)) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
                    END;
                    CREATE TRIGGER people_sort_code_update AFTER UPDATE OF id, last_name, first_name ON people BEGIN
                        UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (old.id & 511) * 3) || X'000000' || substr(codes, (old.id & 511) * 3 + 4) AS BLOB) WHERE block = old.id >> 9 AND old.id <> new.id;
                        INSERT INTO people_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM people_sort_codes WHERE block = new.id >> 9);
                        UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.last_name || ' ' || new.first_name, (SELECT id FROM sort_code_map)) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
                    END;
                    DROP TRIGGER animals_sort_code_insert;
                    DROP TRIGGER animals_sort_code_update;
                    CREATE TRIGGER animals_sort_code_insert AFTER INSERT ON animals BEGIN
                        INSERT INTO animals_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM animals_sort_codes WHERE block = new.id >> 9);
                        UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.name, (SELECT id FROM sort_code_map)) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
                    END;
                    CREATE TRIGGER animals_sort_code_update AFTER UPDATE OF id, name ON animals BEGIN
                        UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (old.id & 511) * 3) || X'000000' || substr(codes, (old.id & 511) * 3 + 4) AS BLOB) WHERE block = old.id >> 9 AND old.id <> new.id;
                        INSERT INTO animals_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM animals_sort_codes WHERE block = new.id >> 9);
                        UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.name, (SELECT id FROM sort_code_map)) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
                    END;
                    """)
        }
        migrator.registerMigration(
            "Never give a deleted record's id to a new one", neverReuseIDs)
        migrator.newDatabaseSetup = createNewDatabase
        return migrator
    }()

    /// The schema of the history's own file (see migration 9 and ``HistoryFile``), versioned
    /// with its own `PRAGMA user_version`; frozen like the main one.
    static let historyMigrator: Migrator = {
        var migrator = Migrator()
        migrator.registerMigration("Create the search history") { database in
            try database.execute(
                sql: """
                    CREATE TABLE history (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        text TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        result_count INTEGER NOT NULL,
                        use_count INTEGER NOT NULL DEFAULT 1,
                        first_used TEXT NOT NULL,
                        last_used TEXT NOT NULL
                    );
                    CREATE INDEX history_by_last_use ON history(last_used);
                    """)
        }
        return migrator
    }()

    /// Migration 8's history keys, folded again by the `ftsearch` tokenizer as the history
    /// folded them when it shipped: each token replaced by its folded text, other characters
    /// kept, white space trimmed and collapsed. Entries whose keys become equal are merged into
    /// the most recently used one, their counts added, the first use the earliest.
    private static func refoldHistoryKeysForMigration8(_ database: Database) throws {
        let tokenizer = try FTS5Tokenizer(database: database, name: "ftsearch")
        func key(of text: String) -> String {
            let utf8 = Array(text.utf8)
            var folded: [UInt8] = []
            var position = 0
            for token in tokenizer.tokens(in: text) {
                folded += utf8[position..<token.sourceRange.lowerBound]
                folded += token.text.utf8
                position = token.sourceRange.upperBound
            }
            folded += utf8[position...]
            return String(decoding: folded, as: UTF8.self)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        var entries: [(id: Int64, key: String, uses: Int, firstUsed: String)] = []
        try database.makeStatement(
            sql: """
                SELECT id, key, text, use_count, first_used FROM history
                ORDER BY last_used DESC, id DESC
                """
        ).forEachRow { row in
            let text = row.text(at: 2) ?? ""
            let folded = key(of: text)
            entries.append(
                (
                    row.int64(at: 0), folded.isEmpty ? row.text(at: 1) ?? "" : folded,
                    row.int(at: 3), row.text(at: 4) ?? ""
                ))
        }
        var survivors: [String: Int] = [:]
        var merged: [Int64] = []
        var kept: [(id: Int64, key: String, uses: Int, firstUsed: String)] = []
        for entry in entries {
            if let survivor = survivors[entry.key] {
                kept[survivor].uses += entry.uses
                kept[survivor].firstUsed = min(kept[survivor].firstUsed, entry.firstUsed)
                merged.append(entry.id)
            } else {
                survivors[entry.key] = kept.count
                kept.append(entry)
            }
        }
        let delete = try database.makeStatement(sql: "DELETE FROM history WHERE id = ?1")
        for id in merged {
            try delete.execute([id])
        }
        // Every key is first made unique by its id, so that no new key meets an old one.
        try database.execute(sql: "UPDATE history SET key = char(0) || id")
        let update = try database.makeStatement(
            sql: "UPDATE history SET key = ?2, use_count = ?3, first_used = ?4 WHERE id = ?1")
        for entry in kept {
            try update.execute([entry.id, entry.key, entry.uses, entry.firstUsed])
        }
    }

    /// Migration 10's filling of the sizes tables, as it shipped: each word index's docsize
    /// rows in id order, a block of 2,048 bytes written for every 2,048 ids that have one; a
    /// byte is the row's total when its docsize blob has one byte per column and the total is
    /// below 255, else 255.
    private static func fillRowSizesForMigration10(_ database: Database) throws {
        for (index, columns) in [("people_fts", 3), ("animals_fts", 1)] {
            let write = try database.makeStatement(
                sql: "INSERT INTO \(index)_sizes(block, sizes) VALUES (?1, ?2)")
            var block: Int64?
            var bytes = [UInt8](repeating: 0, count: 2048)
            try database.makeStatement(sql: "SELECT id, sz FROM \(index)_docsize ORDER BY id")
                .forEachRow { row in
                    let id = row.int64(at: 0)
                    if let block, id >> 11 != block {
                        try write.execute([block, bytes])
                        bytes = [UInt8](repeating: 0, count: 2048)
                    }
                    block = id >> 11
                    let sizes = row.bytes(at: 1)
                    let total = sizes.reduce(0) { $0 + Int($1) }
                    bytes[Int(id & 2047)] =
                        sizes.count == columns && total < 255 ? UInt8(total) : 255
                }
            if let block { try write.execute([block, bytes]) }
        }
    }

    /// Migration 12's filling of the sort codes tables, as it shipped: each kind's records in
    /// id order, a block of 1,536 bytes written for every 512 ids that have one, each record's
    /// code (three bytes from `ftsearch_sort_code`) at `(id & 511) * 3`.
    private static func fillSortCodesForMigration12(_ database: Database) throws {
        for (table, key) in [("people", "last_name || ' ' || first_name"), ("animals", "name")] {
            let write = try database.makeStatement(
                sql: "INSERT INTO \(table)_sort_codes(block, codes) VALUES (?1, ?2)")
            var block: Int64?
            var bytes = [UInt8](repeating: 0, count: 1536)
            try database.makeStatement(
                sql: "SELECT id, ftsearch_sort_code(\(key)) FROM \(table) ORDER BY id"
            ).forEachRow { row in
                let id = row.int64(at: 0)
                if let block, id >> 9 != block {
                    try write.execute([block, bytes])
                    bytes = [UInt8](repeating: 0, count: 1536)
                }
                block = id >> 9
                let offset = Int(id & 511) * 3
                bytes.replaceSubrange(offset..<offset + 3, with: row.bytes(at: 1))
            }
            if let block { try write.execute([block, bytes]) }
        }
    }

    /// Migration 4's re-indexing, as it shipped: every row of both kinds into the new word
    /// indexes, 50,000 rows a statement, with FTS5 set for bulk writing meanwhile (no automerge,
    /// an 8 MiB hash, crisis merges at 64 segments) and FTS5's defaults stored afterwards.
    private static func reindexEveryRowForMigration4(
        _ database: Database, onProgress: (MigrationProgress) -> Void
    ) throws {
        let kinds = [("people", "first_name, last_name, company"), ("animals", "name")]
        let total = try kinds.reduce(0) {
            $0 + (try database.fetchInt(sql: "SELECT count(*) FROM \($1.0)") ?? 0)
        }
        let settings = [
            ("automerge", 0, 4), ("hashsize", 8 << 20, 1 << 20), ("crisismerge", 64, 16),
        ]
        var done = 0
        for (table, columns) in kinds {
            let index = "\(table)_fts"
            for (setting, bulk, _) in settings {
                try database.execute(
                    sql: "INSERT INTO \(index)(\(index), rank) VALUES ('\(setting)', \(bulk))")
            }
            let slice = try database.makeStatement(
                sql: """
                    INSERT INTO \(index)(rowid, \(columns))
                    SELECT id, \(columns) FROM \(table) WHERE id >= ?1 AND (?2 IS NULL OR id < ?2)
                    """)
            let count = try database.makeStatement(
                sql: "SELECT count(*) FROM \(table) WHERE id >= ?1 AND (?2 IS NULL OR id < ?2)")
            let boundary = try database.makeStatement(
                sql: "SELECT id FROM \(table) WHERE id >= ?1 ORDER BY id LIMIT 1 OFFSET 50000")
            var lower = Int64.min
            while true {
                let upper = try boundary.firstRow([lower]) { $0.int64(at: 0) }
                try slice.execute([lower, upper])
                done += try count.firstRow([lower, upper]) { $0.int(at: 0) } ?? 0
                onProgress(MigrationProgress(done: done, total: total))
                guard let upper else { break }
                lower = upper
            }
            for (setting, _, standard) in settings {
                try database.execute(
                    sql: "INSERT INTO \(index)(\(index), rank) VALUES ('\(setting)', \(standard))")
            }
        }
    }
}
