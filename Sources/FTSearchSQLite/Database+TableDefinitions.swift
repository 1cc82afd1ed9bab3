import CSQLite

extension Database {
    /// The `CREATE` statement of the table `name` as `sqlite_schema` keeps it (the options of
    /// an FTS5 table among it), or nil when the database has no such table.
    ///
    /// Every search asks which indexes a kind has and with which options. The answers are read
    /// once for each version of the schema (`PRAGMA schema_version`, which every schema change
    /// of any connection moves) and kept with the connection, so a search reads one number
    /// instead of scanning `sqlite_schema`. Inside a write transaction they are read afresh:
    /// its schema changes may yet be rolled back.
    package func tableDefinition(named name: String) throws -> String? {
        guard sqlite3_txn_state(handle, "main") != SQLITE_TXN_WRITE else {
            return try cachedStatement(
                sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1"
            ).firstRow([name]) { $0.text(at: 0) ?? "" }
        }
        let kept = kept(KeptTableDefinitions.self) { KeptTableDefinitions() }
        let version = try cachedStatement(sql: "PRAGMA schema_version").firstRow { $0.int64(at: 0) }
        if kept.schemaVersion != version {
            var definitions: [String: String] = [:]
            try cachedStatement(sql: "SELECT name, sql FROM sqlite_schema WHERE type = 'table'")
                .forEachRow { row in
                    definitions[row.text(at: 0) ?? ""] = row.text(at: 1) ?? ""
                }
            kept.definitions = definitions
            kept.schemaVersion = version
        }
        return kept.definitions[name]
    }
}

/// The table definitions a connection read, and the schema version they are of.
private final class KeptTableDefinitions {
    var schemaVersion: Int64?
    var definitions: [String: String] = [:]
}
