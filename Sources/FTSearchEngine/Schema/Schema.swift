package import FTSearchSQLite

/// The database schema, as an ordered list of migrations, and the schema a new database is
/// created with at once (``createNewDatabase(_:)``).
///
/// **Shipped migrations are history, never edited**: each is literal SQL as it shipped (or code
/// that calls nothing outside the Schema files), and a change is a new migration at the end, and the
/// same change in ``createNewDatabase(_:)``. `FrozenMigrationTests` builds a database at every version
/// and compares its schema with the dump committed for that version, and a new database's with
/// the latest. (Migration 4 as first shipped also built the substring
/// indexes; it was changed to stop before any release used migration 6, which drops them
/// whether they exist or not, so every upgrade path ends at the same schema.)
///
/// **What a migration does not freeze, it says it pins.** Two functions are registered on
/// every connection rather than written in SQL: the `ftsearch` tokenizer and
/// `ftsearch_sort_code`. Migrations that fill an index or the sort codes (4, 8, 10, 12, 13, 18)
/// call them as the running ftsearch has them, on purpose: what they make is what that
/// ftsearch reads, and a database is always filled by the tokenizer and codes of the ftsearch
/// that opens it. A change to either is therefore a new migration that fills again what they
/// made (as 8 and 18 re-index for the tokenizer's changes), never a silent one — and the
/// tokens' change is also a change of ranking (see `ResultCache.rankingVersion`).
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
/// - `record_versions` counts the writes to each kind's records; `field_columns` keeps the
///   fields filters, facets and sort read, for the version they were read at (see
///   ``FieldVersions``, ``FieldColumnStore``).
/// - `history` holds one row per normalized search; `people_vocabulary` and
///   `animals_vocabulary` list the indexed words (https://sqlite.org/fts5.html#the_fts5vocab_virtual_table_module).
package enum Schema {
    package static let migrator: Migrator = {
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
        registerMigrationsFrom9(in: &migrator)
        return migrator
    }()

    /// The schema of the history's own file (see migration 9 and ``HistoryFile``), versioned
    /// with its own `PRAGMA user_version`; frozen like the main one.
    package static let historyMigrator: Migrator = {
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
}
