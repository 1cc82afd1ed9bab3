import FTSearchSQLite

/// Changes what SQLite's `ALTER TABLE` cannot, such as a column's type, the way
/// https://sqlite.org/lang_altertable.html#otheralter describes: a new table is made and filled
/// from the old one's rows, the old table is dropped and the new one takes its name; the old
/// table's indexes and triggers are then made again, from their own `CREATE` statements.
///
/// Rows keep their ids, so external-content FTS5 indexes stay exact without re-indexing as long
/// as the searchable columns are copied unchanged. Runs inside the caller's transaction.
struct TableRebuild {
    /// The table to rebuild.
    let table: String
    /// The new table's column definitions, as they go between the parentheses of
    /// `CREATE TABLE`.
    let columns: String
    /// One expression per new column, over the old table's columns, in order.
    let values: [String]

    /// Rebuilds the table in `database`.
    func apply(to database: Database) throws {
        let dependents = try dependentObjects(in: database)
        let rebuilt = "\(table)_rebuilt"
        try database.execute(
            sql: """
                CREATE TABLE \(rebuilt) (\(columns));
                INSERT INTO \(rebuilt) SELECT \(values.joined(separator: ", ")) FROM \(table);
                DROP TABLE \(table);
                ALTER TABLE \(rebuilt) RENAME TO \(table);
                """)
        for sql in dependents {
            try database.execute(sql: sql)
        }
    }

    /// The `CREATE` statements of the table's own indexes and triggers (not the automatic
    /// indexes of its constraints, which have none).
    private func dependentObjects(in database: Database) throws -> [String] {
        var statements: [String] = []
        try database.makeStatement(
            sql: """
                SELECT sql FROM sqlite_schema
                WHERE type IN ('index', 'trigger') AND tbl_name = ?1 AND sql IS NOT NULL
                ORDER BY type, name
                """
        ).forEachRow([table]) { row in
            if let sql = row.text(at: 0) { statements.append(sql) }
        }
        return statements
    }
}
