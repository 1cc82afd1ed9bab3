import FTSearchSQLite

extension Schema {
    /// Migration 17, as it shipped: a count of the writes to each kind's records, which
    /// tells the fields a process holds in memory for filters, facets and sort that they
    /// changed (see ``FieldVersions``).
    static func countRecordWrites(_ database: Database) throws {
        try database.execute(
            sql: """
                CREATE TABLE record_versions (kind TEXT PRIMARY KEY, version INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TRIGGER animals_version_delete AFTER DELETE ON animals BEGIN
                    INSERT INTO record_versions(kind, version) VALUES ('animals', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
                END;
                CREATE TRIGGER animals_version_insert AFTER INSERT ON animals BEGIN
                    INSERT INTO record_versions(kind, version) VALUES ('animals', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
                END;
                CREATE TRIGGER animals_version_update AFTER UPDATE ON animals BEGIN
                    INSERT INTO record_versions(kind, version) VALUES ('animals', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
                END;
                CREATE TRIGGER people_version_delete AFTER DELETE ON people BEGIN
                    INSERT INTO record_versions(kind, version) VALUES ('people', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
                END;
                CREATE TRIGGER people_version_insert AFTER INSERT ON people BEGIN
                    INSERT INTO record_versions(kind, version) VALUES ('people', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
                END;
                CREATE TRIGGER people_version_update AFTER UPDATE ON people BEGIN
                    INSERT INTO record_versions(kind, version) VALUES ('people', 1) ON CONFLICT(kind) DO UPDATE SET version = version + 1;
                END;
                """)
    }
}
