/// The database schema, as an ordered list of migrations.
///
/// - `people` and `animals` hold the records; searchable columns are plain text (empty when
///   absent), every other input field is kept in `extra`, a JSON object; `created_at` and
///   `updated_at` are integer milliseconds since 1970 (see ``StoredTime``).
/// - `people_fts` and `animals_fts` index the searchable columns' words; `people_substring` and
///   `animals_substring` their trigrams, once the first substring search of the kind has built
///   them (see ``IndexSync``, ``FullTextIndex``, ``IndexBuilder``).
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
                    """)
            for kind in Kind.allCases {
                let sync = IndexSync(kind: kind, indexes: [.unicode61Words(of: kind)])
                try database.execute(sql: sync.createIndexesSQL)
                try database.execute(sql: sync.createTriggersSQL)
            }
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
            // Records sort by `last_name || ' ' || first_name` (see QueryEngine.sortKey); an index
            // on that expression serves the first page of an empty search without sorting every
            // row, where the old two-column index served no query at all.
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
            // the fts5vocab tables name their index and need no change. (This migration also
            // built the substring indexes until they became built on first use: see migration 6.)
            var syncs: [IndexSync] = []
            for kind in Kind.allCases {
                let old = IndexSync(kind: kind, indexes: [.unicode61Words(of: kind)])
                try database.execute(sql: old.dropTriggersSQL + old.dropIndexesSQL)
                let sync = IndexSync(kind: kind, indexes: [.words(of: kind)])
                try database.execute(sql: sync.createIndexesSQL + sync.createTriggersSQL)
                syncs.append(sync)
            }
            try database.execute(sql: Vocabulary.createCacheSQL)
            try Reindexer(database: database).indexAllRows(of: syncs) { done, total in
                onProgress(
                    ImportProgress(
                        recordsRead: done, bytesRead: Int64(done), totalBytes: Int64(total)))
            }
        }
        migrator.registerMigration("Keep the rankings of expensive searches") { database in
            try database.execute(sql: ResultCache.createTableSQL)
        }
        migrator.registerMigration("Build the substring indexes on first use, not at import") {
            database in
            // The substring (trigram) index serves only `--match substring`, yet building it at
            // every import took two thirds of the import time and a third of the database at
            // 1M people (22 s of 33 s, 162 of 459 MiB). It is now built by the first substring
            // search of each kind (see IndexBuilder); databases that have it from schemas 4 and 5
            // drop it (its pages are reused by later writes; `ftsearch optimize` gives them back
            // to the file system), and their triggers go back to keeping the word index only.
            for kind in Kind.allCases {
                try IndexBuilder(database: database).drop(
                    IndexBuilder.Target(kind: kind, index: .substrings(of: kind)))
            }
            // Kept rankings of substring searches name the dropped indexes' structure records;
            // the rebuilt index, made from records changed meanwhile, could repeat one.
            try database.execute(sql: "DELETE FROM result_cache")
        }
        migrator.registerMigration("Store the records' times as integer milliseconds") {
            database in
            // 6 bytes a time instead of 24 (see StoredTime): 46 MiB less for a million people.
            for kind in Kind.allCases {
                let times = ["created_at", "updated_at"]
                try TableRebuild(
                    table: kind.tableName,
                    columns: (["id INTEGER PRIMARY KEY"]
                        + kind.searchableFields.map { "\($0) TEXT NOT NULL DEFAULT ''" }
                        + ["extra TEXT NOT NULL DEFAULT '{}'"]
                        + times.map { "\($0) INTEGER NOT NULL" })
                        .joined(separator: ", "),
                    values: ["id"] + kind.searchableFields + ["extra"]
                        + times.map(StoredTime.millisecondsSQL(fromTextIn:))
                ).apply(to: database)
            }
        }
        return migrator
    }()
}
