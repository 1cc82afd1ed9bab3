import FTSearchSQLite

extension Schema {
    /// Migration 19, as it shipped: the fields filters, facets and sort read, kept on disk as
    /// one blob a field of a kind, for the records' version of `record_versions` (see
    /// ``FieldColumnStore``).
    static func keepFieldColumns(_ database: Database) throws {
        try database.execute(
            sql: """
                CREATE TABLE field_columns (
                    kind TEXT NOT NULL,
                    field TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    data BLOB NOT NULL,
                    PRIMARY KEY (kind, field)
                );
                """)
    }
}
