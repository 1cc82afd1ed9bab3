import FTSearchSQLite

extension Schema {
    /// Makes the schema of a new database: every migration's end state, in one step rather than
    /// the migrations one by one (as Rails loads `db/schema.rb` into a new database rather than
    /// replaying its migrations): the tables written out (``newDatabaseTablesSQL``), then each
    /// kind's triggers as imports restore them: those of every piece of derived data
    /// (``DerivedData/triggers(of:)``).
    ///
    /// Replaying the migrations made, rebuilt and renamed tables, reindexed empty indexes and
    /// created a history file to move no entries into: about 9 ms of the first import's, a
    /// tenth of a 10,000-record one's. The migrations stay what brings an older database up
    /// to date.
    ///
    /// **A change to the schema is a new migration and the same change here** (or in the
    /// trigger SQL, which imports restore already): `FrozenMigrationTests` holds a database
    /// made with this to the dump of the latest version, object by object, and to a database
    /// the migrations brought there, row by row. FTS5's settings that the migrations stored at
    /// their default values (`automerge`, `crisismerge`, `hashsize`) are not stored here; FTS5
    /// reads the same values.
    static func createNewDatabase(_ database: Database) throws {
        try database.execute(sql: newDatabaseTablesSQL)
        let derived = try DerivedDataList.all(in: database)
        for kind in Kind.allCases {
            try database.execute(
                sql: derived.compactMap { $0.triggers(of: kind)?.createSQL }.joined())
        }
    }

    /// The tables, full-text indexes and indexes of a new database, as the latest migration
    /// leaves them (their SQL as `sqlite_schema` holds it).
    static let newDatabaseTablesSQL = """
        CREATE TABLE "people" (id INTEGER PRIMARY KEY AUTOINCREMENT, first_name TEXT NOT NULL DEFAULT '', last_name TEXT NOT NULL DEFAULT '', company TEXT NOT NULL DEFAULT '', extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
        CREATE TABLE people_fts_sizes (block INTEGER PRIMARY KEY, sizes BLOB NOT NULL);
        CREATE TABLE people_sort_codes (block INTEGER PRIMARY KEY, codes BLOB NOT NULL);
        CREATE TABLE "animals" (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL DEFAULT '', extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
        CREATE TABLE animals_fts_sizes (block INTEGER PRIMARY KEY, sizes BLOB NOT NULL);
        CREATE TABLE animals_sort_codes (block INTEGER PRIMARY KEY, codes BLOB NOT NULL);
        CREATE TABLE sort_code_map (id INTEGER PRIMARY KEY, records INTEGER NOT NULL, boundaries BLOB NOT NULL);
        CREATE TABLE result_cache (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            structure BLOB NOT NULL,
            total INTEGER NOT NULL,
            entries BLOB NOT NULL
        , frontier BLOB);
        CREATE TABLE search_changes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            id INTEGER,
            existed INTEGER NOT NULL,
            field1 TEXT,
            field2 TEXT,
            field3 TEXT
        );
        CREATE TABLE vocabulary_cache (
            kind TEXT PRIMARY KEY,
            structure BLOB NOT NULL,
            words BLOB NOT NULL
        );
        CREATE TABLE record_versions (kind TEXT PRIMARY KEY, version INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE field_columns (
            kind TEXT NOT NULL,
            field TEXT NOT NULL,
            version INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY (kind, field)
        );
        CREATE VIRTUAL TABLE people_fts USING fts5(
            first_name, last_name, company,
            content='people', content_rowid='id',
            tokenize='ftsearch', prefix='1 2 3'
        );
        CREATE VIRTUAL TABLE animals_fts USING fts5(
            name,
            content='animals', content_rowid='id',
            tokenize='ftsearch', prefix='1 2 3'
        );
        CREATE VIRTUAL TABLE people_vocabulary USING fts5vocab(people_fts, 'row');
        CREATE VIRTUAL TABLE animals_vocabulary USING fts5vocab(animals_fts, 'row');
        """
}
