import FTSearchSQLite

extension Schema {
    /// Migration 18, as it shipped: names indexed as people type them in every country.
    static func indexNamesAsTypedEverywhere(
        _ database: Database, onProgress: (MigrationProgress) -> Void
    ) throws {
        // The tokenizer now stores beside each word its other spellings (German and Nordic
        // ASCII spellings, Greek and Cyrillic romanizations, Arabic without the article), folds
        // Arabic ta marbuta, alef maksura and tatweel, and splits words at U+02BC as at the
        // other apostrophes, so its tokens change. As migrations 8 and 10 did: a substring
        // index built on first use is dropped (with its sizes), to be built again by the next
        // substring search, and the index triggers are made again as schemas 16 and 17 have them
        // without it; kept rankings and vocabularies made of the old tokens are dropped; the
        // word indexes are emptied and filled again from their records (with migration 4's
        // re-indexing and its progress), and their row sizes filled again (migration 10's).
        try database.execute(
            sql: """
                DROP TRIGGER people_index_insert;
                DROP TRIGGER people_index_delete;
                DROP TRIGGER people_index_update;
                DROP TABLE IF EXISTS people_substring;
                DROP TABLE IF EXISTS people_substring_sizes;
                CREATE TRIGGER people_index_insert AFTER INSERT ON people BEGIN
                    INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                    INSERT INTO people_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM people_fts_sizes WHERE block = new.id >> 11);
                    UPDATE people_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 3 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 3, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 4, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 5, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 6, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM people_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
                END;
                CREATE TRIGGER people_index_delete AFTER DELETE ON people BEGIN
                    INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                END;
                CREATE TRIGGER people_index_update AFTER UPDATE OF id, first_name, last_name, company ON people BEGIN
                    INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
                    INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
                    INSERT INTO people_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM people_fts_sizes WHERE block = new.id >> 11);
                    UPDATE people_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 3 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 3, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 4, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 5, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 6, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM people_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
                END;
                DROP TRIGGER animals_index_insert;
                DROP TRIGGER animals_index_delete;
                DROP TRIGGER animals_index_update;
                DROP TABLE IF EXISTS animals_substring;
                DROP TABLE IF EXISTS animals_substring_sizes;
                CREATE TRIGGER animals_index_insert AFTER INSERT ON animals BEGIN
                    INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                    INSERT INTO animals_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM animals_fts_sizes WHERE block = new.id >> 11);
                    UPDATE animals_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 1 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM animals_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
                END;
                CREATE TRIGGER animals_index_delete AFTER DELETE ON animals BEGIN
                    INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                END;
                CREATE TRIGGER animals_index_update AFTER UPDATE OF id, name ON animals BEGIN
                    INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
                    INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
                    INSERT INTO animals_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM animals_fts_sizes WHERE block = new.id >> 11);
                    UPDATE animals_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 1 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM animals_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
                END;
                DELETE FROM result_cache;
                DELETE FROM vocabulary_cache;
                INSERT INTO people_fts(people_fts) VALUES ('delete-all');
                INSERT INTO animals_fts(animals_fts) VALUES ('delete-all');
                DELETE FROM people_fts_sizes;
                DELETE FROM animals_fts_sizes;
                """)
        try reindexEveryRowForMigration4(database, onProgress: onProgress)
        try fillRowSizesForMigration10(database)
    }
}
