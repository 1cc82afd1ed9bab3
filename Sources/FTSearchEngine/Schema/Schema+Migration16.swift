import FTSearchSQLite

extension Schema {
    /// Migration 16, as it shipped: people and animals get AUTOINCREMENT ids.
    static func neverReuseIDs(_ database: Database) throws {
        // SQLite gives a row inserted without an id the highest id plus one, so deleting
        // the record with the highest id and adding another gave the new one the deleted
        // one's id, and a client holding that id changed someone else's record. With
        // AUTOINCREMENT an id is never given twice (https://sqlite.org/autoinc.html).
        // ALTER TABLE cannot add it: the procedure migration 7 follows, ids kept (so the
        // external-content indexes stay exact), indexes and triggers made again from their
        // own SQL; sqlite_sequence starts at each table's highest id (an empty table's row of
        // 0, which the copy leaves, goes: a new database has none).
        let tables = [
            (
                "people",
                "id INTEGER PRIMARY KEY AUTOINCREMENT, first_name TEXT NOT NULL DEFAULT '', "
                    + "last_name TEXT NOT NULL DEFAULT '', company TEXT NOT NULL DEFAULT '', "
                    + "extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL, "
                    + "updated_at INTEGER NOT NULL",
                "id, first_name, last_name, company, extra, created_at, updated_at"
            ),
            (
                "animals",
                "id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL DEFAULT '', "
                    + "extra TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL, "
                    + "updated_at INTEGER NOT NULL",
                "id, name, extra, created_at, updated_at"
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
                    INSERT INTO \(table)_rebuilt (\(kept)) SELECT \(kept) FROM \(table);
                    DROP TABLE \(table);
                    ALTER TABLE \(table)_rebuilt RENAME TO \(table);
                    DELETE FROM sqlite_sequence WHERE name = '\(table)' AND seq = 0;
                    """)
            for sql in dependents {
                try database.execute(sql: sql)
            }
        }
    }
}
