import FTSearchSQLite

extension Schema {
    /// Migrations 9 and later, registered after 1 to 8 by ``migrator``, as they shipped.
    static func registerMigrationsFrom9(in migrator: inout Migrator) {
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
        migrator.registerMigration(
            "Count the writes to each kind's records, for the fields filters read in memory",
            countRecordWrites)
        migrator.registerMigration(
            "Index names as people type them in every country", indexNamesAsTypedEverywhere)
        migrator.registerMigration(
            "Keep the fields filters read on disk, for one-shot searches", keepFieldColumns)
        migrator.newDatabaseSetup = createNewDatabase
    }
}
