import FTSearchSQLite

/// A count of the writes to each kind's records, kept by triggers (`record_versions`): what
/// tells a ``FieldTable`` held in memory (see ``SearchMemory``) that the records it was read
/// from have changed, for one indexed read instead of reading them again. Every single-record
/// insert, update and delete adds one; a bulk write (``BulkWriter``), which drops the
/// triggers, adds one when it is done.
enum FieldVersions {
    /// The version of `kind`'s records: 0 before any write counted.
    static func version(of kind: Kind, in database: Database) throws -> Int64 {
        try database.cachedStatement(sql: "SELECT version FROM record_versions WHERE kind = ?1")
            .firstRow([kind.rawValue]) { $0.int64(at: 0) } ?? 0
    }

    /// Counts a write to `kind`'s records that the triggers did not see.
    static func noteBulkWrite(of kind: Kind, in database: Database) throws {
        try database.cachedStatement(sql: upsertSQL(of: kind)).execute()
    }

    private static func upsertSQL(of kind: Kind) -> String {
        """
        INSERT INTO record_versions(kind, version) VALUES ('\(kind.rawValue)', 1) \
        ON CONFLICT(kind) DO UPDATE SET version = version + 1;
        """
    }

    /// The triggers that count `kind`'s writes, as migration 17 made them.
    static func createTriggersSQL(of kind: Kind) -> String {
        let table = kind.tableName
        return ["insert": "INSERT", "update": "UPDATE", "delete": "DELETE"].sorted {
            $0.key < $1.key
        }
        .map { name, event in
            """
            CREATE TRIGGER \(table)_version_\(name) AFTER \(event) ON \(table) BEGIN
                \(upsertSQL(of: kind))
            END;

            """
        }.joined()
    }

    /// Drops the triggers, for a bulk write.
    static func dropTriggersSQL(of kind: Kind) -> String {
        let table = kind.tableName
        return ["delete", "insert", "update"].map { "DROP TRIGGER \(table)_version_\($0);\n" }
            .joined()
    }
}
