-- user_version 19
-- index sqlite_autoindex_field_columns_1
;
-- index sqlite_autoindex_result_cache_1
;
-- index sqlite_autoindex_vocabulary_cache_1
;
-- table animals
CREATE TABLE "animals" (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL DEFAULT '', extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
-- table animals_fts
CREATE VIRTUAL TABLE animals_fts USING fts5(
    name,
    content='animals', content_rowid='id',
    tokenize='ftsearch', prefix='1 2 3'
);
-- table animals_fts_config
CREATE TABLE 'animals_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;
-- table animals_fts_data
CREATE TABLE 'animals_fts_data'(id INTEGER PRIMARY KEY, block BLOB);
-- table animals_fts_docsize
CREATE TABLE 'animals_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);
-- table animals_fts_idx
CREATE TABLE 'animals_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;
-- table animals_fts_sizes
CREATE TABLE animals_fts_sizes (block INTEGER PRIMARY KEY, sizes BLOB NOT NULL);
-- table animals_sort_codes
CREATE TABLE animals_sort_codes (block INTEGER PRIMARY KEY, codes BLOB NOT NULL);
-- table animals_vocabulary
CREATE VIRTUAL TABLE animals_vocabulary USING fts5vocab(animals_fts, 'row');
-- table field_columns
CREATE TABLE field_columns (
    kind TEXT NOT NULL,
    field TEXT NOT NULL,
    version INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (kind, field)
);
-- table people
CREATE TABLE "people" (id INTEGER PRIMARY KEY AUTOINCREMENT, first_name TEXT NOT NULL DEFAULT '', last_name TEXT NOT NULL DEFAULT '', company TEXT NOT NULL DEFAULT '', extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
-- table people_fts
CREATE VIRTUAL TABLE people_fts USING fts5(
    first_name, last_name, company,
    content='people', content_rowid='id',
    tokenize='ftsearch', prefix='1 2 3'
);
-- table people_fts_config
CREATE TABLE 'people_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;
-- table people_fts_data
CREATE TABLE 'people_fts_data'(id INTEGER PRIMARY KEY, block BLOB);
-- table people_fts_docsize
CREATE TABLE 'people_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);
-- table people_fts_idx
CREATE TABLE 'people_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;
-- table people_fts_sizes
CREATE TABLE people_fts_sizes (block INTEGER PRIMARY KEY, sizes BLOB NOT NULL);
-- table people_sort_codes
CREATE TABLE people_sort_codes (block INTEGER PRIMARY KEY, codes BLOB NOT NULL);
-- table people_vocabulary
CREATE VIRTUAL TABLE people_vocabulary USING fts5vocab(people_fts, 'row');
-- table record_versions
CREATE TABLE record_versions (kind TEXT PRIMARY KEY, version INTEGER NOT NULL) WITHOUT ROWID;
-- table result_cache
CREATE TABLE result_cache (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    structure BLOB NOT NULL,
    total INTEGER NOT NULL,
    entries BLOB NOT NULL
, frontier BLOB);
-- table search_changes
CREATE TABLE search_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    id INTEGER,
    existed INTEGER NOT NULL,
    field1 TEXT,
    field2 TEXT,
    field3 TEXT
);
-- table sort_code_map
CREATE TABLE sort_code_map (id INTEGER PRIMARY KEY, records INTEGER NOT NULL, boundaries BLOB NOT NULL);
-- table sqlite_sequence
CREATE TABLE sqlite_sequence(name,seq);
-- table vocabulary_cache
CREATE TABLE vocabulary_cache (
    kind TEXT PRIMARY KEY,
    structure BLOB NOT NULL,
    words BLOB NOT NULL
);
-- trigger animals_index_delete
CREATE TRIGGER animals_index_delete AFTER DELETE ON animals BEGIN
    INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
END;
-- trigger animals_index_insert
CREATE TRIGGER animals_index_insert AFTER INSERT ON animals BEGIN
    INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
    INSERT INTO animals_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM animals_fts_sizes WHERE block = new.id >> 11);
    UPDATE animals_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 1 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM animals_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
END;
-- trigger animals_index_update
CREATE TRIGGER animals_index_update AFTER UPDATE OF id, name ON animals BEGIN
    INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
    INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
    INSERT INTO animals_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM animals_fts_sizes WHERE block = new.id >> 11);
    UPDATE animals_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 1 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM animals_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
END;
-- trigger animals_log_delete
CREATE TRIGGER animals_log_delete AFTER DELETE ON animals BEGIN
    INSERT INTO search_changes(kind, id, existed, field1) VALUES ('animals', old.id, 1, old.name);
    DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
END;
-- trigger animals_log_insert
CREATE TRIGGER animals_log_insert AFTER INSERT ON animals BEGIN
    INSERT INTO search_changes(kind, id, existed) VALUES ('animals', new.id, 0);
    DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
END;
-- trigger animals_log_update
CREATE TRIGGER animals_log_update AFTER UPDATE OF id, name ON animals BEGIN
    INSERT INTO search_changes(kind, id, existed, field1) VALUES ('animals', old.id, 1, old.name);
    INSERT INTO search_changes(kind, id, existed) SELECT 'animals', new.id, 0 WHERE new.id <> old.id;
    DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
END;
-- trigger animals_sort_code_delete
CREATE TRIGGER animals_sort_code_delete AFTER DELETE ON animals BEGIN
    UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (old.id & 511) * 3) || X'000000' || substr(codes, (old.id & 511) * 3 + 4) AS BLOB) WHERE block = old.id >> 9;
END;
-- trigger animals_sort_code_insert
CREATE TRIGGER animals_sort_code_insert AFTER INSERT ON animals BEGIN
    INSERT INTO animals_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM animals_sort_codes WHERE block = new.id >> 9);
    UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.name, (SELECT id FROM sort_code_map)) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
END;
-- trigger animals_sort_code_update
CREATE TRIGGER animals_sort_code_update AFTER UPDATE OF id, name ON animals BEGIN
    UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (old.id & 511) * 3) || X'000000' || substr(codes, (old.id & 511) * 3 + 4) AS BLOB) WHERE block = old.id >> 9 AND old.id <> new.id;
    INSERT INTO animals_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM animals_sort_codes WHERE block = new.id >> 9);
    UPDATE animals_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.name, (SELECT id FROM sort_code_map)) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
END;
-- trigger animals_version_delete
CREATE TRIGGER animals_version_delete AFTER DELETE ON animals BEGIN
    INSERT INTO record_versions(kind, version) VALUES ('animals', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
END;
-- trigger animals_version_insert
CREATE TRIGGER animals_version_insert AFTER INSERT ON animals BEGIN
    INSERT INTO record_versions(kind, version) VALUES ('animals', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
END;
-- trigger animals_version_update
CREATE TRIGGER animals_version_update AFTER UPDATE ON animals BEGIN
    INSERT INTO record_versions(kind, version) VALUES ('animals', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
END;
-- trigger people_index_delete
CREATE TRIGGER people_index_delete AFTER DELETE ON people BEGIN
    INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
END;
-- trigger people_index_insert
CREATE TRIGGER people_index_insert AFTER INSERT ON people BEGIN
    INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
    INSERT INTO people_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM people_fts_sizes WHERE block = new.id >> 11);
    UPDATE people_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 3 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 3, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 4, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 5, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 6, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM people_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
END;
-- trigger people_index_update
CREATE TRIGGER people_index_update AFTER UPDATE OF id, first_name, last_name, company ON people BEGIN
    INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
    INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
    INSERT INTO people_fts_sizes(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM people_fts_sizes WHERE block = new.id >> 11);
    UPDATE people_fts_sizes SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = 3 AND t < 255 THEN substr(X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F707172737475767778797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9FA0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFE', t + 1, 1) ELSE X'FF' END FROM (SELECT sz, (instr('0123456789ABCDEF', substr(h, 1, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 2, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 3, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 4, 1)) - 17) + (instr('0123456789ABCDEF', substr(h, 5, 1)) * 16 + instr('0123456789ABCDEF', substr(h, 6, 1)) - 17) AS t FROM (SELECT sz, hex(sz) AS h FROM people_fts_docsize WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
END;
-- trigger people_log_delete
CREATE TRIGGER people_log_delete AFTER DELETE ON people BEGIN
    INSERT INTO search_changes(kind, id, existed, field1, field2, field3) VALUES ('people', old.id, 1, old.first_name, old.last_name, old.company);
    DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
END;
-- trigger people_log_insert
CREATE TRIGGER people_log_insert AFTER INSERT ON people BEGIN
    INSERT INTO search_changes(kind, id, existed) VALUES ('people', new.id, 0);
    DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
END;
-- trigger people_log_update
CREATE TRIGGER people_log_update AFTER UPDATE OF id, first_name, last_name, company ON people BEGIN
    INSERT INTO search_changes(kind, id, existed, field1, field2, field3) VALUES ('people', old.id, 1, old.first_name, old.last_name, old.company);
    INSERT INTO search_changes(kind, id, existed) SELECT 'people', new.id, 0 WHERE new.id <> old.id;
    DELETE FROM search_changes WHERE seq <= last_insert_rowid() - 4096;
END;
-- trigger people_sort_code_delete
CREATE TRIGGER people_sort_code_delete AFTER DELETE ON people BEGIN
    UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (old.id & 511) * 3) || X'000000' || substr(codes, (old.id & 511) * 3 + 4) AS BLOB) WHERE block = old.id >> 9;
END;
-- trigger people_sort_code_insert
CREATE TRIGGER people_sort_code_insert AFTER INSERT ON people BEGIN
    INSERT INTO people_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM people_sort_codes WHERE block = new.id >> 9);
    UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.last_name || ' ' || new.first_name, (SELECT id FROM sort_code_map)) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
END;
-- trigger people_sort_code_update
CREATE TRIGGER people_sort_code_update AFTER UPDATE OF id, last_name, first_name ON people BEGIN
    UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (old.id & 511) * 3) || X'000000' || substr(codes, (old.id & 511) * 3 + 4) AS BLOB) WHERE block = old.id >> 9 AND old.id <> new.id;
    INSERT INTO people_sort_codes(block, codes) SELECT new.id >> 9, zeroblob(1536) WHERE NOT EXISTS (SELECT 1 FROM people_sort_codes WHERE block = new.id >> 9);
    UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, (new.id & 511) * 3) || ftsearch_sort_code(new.last_name || ' ' || new.first_name, (SELECT id FROM sort_code_map)) || substr(codes, (new.id & 511) * 3 + 4) AS BLOB) WHERE block = new.id >> 9;
END;
-- trigger people_version_delete
CREATE TRIGGER people_version_delete AFTER DELETE ON people BEGIN
    INSERT INTO record_versions(kind, version) VALUES ('people', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
END;
-- trigger people_version_insert
CREATE TRIGGER people_version_insert AFTER INSERT ON people BEGIN
    INSERT INTO record_versions(kind, version) VALUES ('people', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
END;
-- trigger people_version_update
CREATE TRIGGER people_version_update AFTER UPDATE ON people BEGIN
    INSERT INTO record_versions(kind, version) VALUES ('people', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
END;
