-- user_version 9
-- index animals_by_name
CREATE INDEX animals_by_name ON animals(name COLLATE NOCASE);
-- index people_by_sort_name
CREATE INDEX people_by_sort_name ON people((last_name || ' ' || first_name) COLLATE NOCASE);
-- index sqlite_autoindex_result_cache_1
;
-- index sqlite_autoindex_vocabulary_cache_1
;
-- table animals
CREATE TABLE "animals" (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
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
-- table animals_vocabulary
CREATE VIRTUAL TABLE animals_vocabulary USING fts5vocab(animals_fts, 'row');
-- table people
CREATE TABLE "people" (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL DEFAULT '', last_name TEXT NOT NULL DEFAULT '', company TEXT NOT NULL DEFAULT '', extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
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
-- table people_vocabulary
CREATE VIRTUAL TABLE people_vocabulary USING fts5vocab(people_fts, 'row');
-- table result_cache
CREATE TABLE result_cache (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    structure BLOB NOT NULL,
    total INTEGER NOT NULL,
    entries BLOB NOT NULL
);
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
END;
-- trigger animals_index_update
CREATE TRIGGER animals_index_update AFTER UPDATE OF name ON animals BEGIN
    INSERT INTO animals_fts(animals_fts, rowid, name) VALUES ('delete', old.id, old.name);
    INSERT INTO animals_fts(rowid, name) VALUES (new.id, new.name);
END;
-- trigger people_index_delete
CREATE TRIGGER people_index_delete AFTER DELETE ON people BEGIN
    INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
END;
-- trigger people_index_insert
CREATE TRIGGER people_index_insert AFTER INSERT ON people BEGIN
    INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
END;
-- trigger people_index_update
CREATE TRIGGER people_index_update AFTER UPDATE OF first_name, last_name, company ON people BEGIN
    INSERT INTO people_fts(people_fts, rowid, first_name, last_name, company) VALUES ('delete', old.id, old.first_name, old.last_name, old.company);
    INSERT INTO people_fts(rowid, first_name, last_name, company) VALUES (new.id, new.first_name, new.last_name, new.company);
END;
