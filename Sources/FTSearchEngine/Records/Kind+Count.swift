package import FTSearchSQLite

extension Kind {
    /// How many records of this kind `database` holds.
    package func recordCount(in database: Database) throws -> Int {
        try database.fetchInt(sql: "SELECT count(*) FROM \(tableName)") ?? 0
    }
}
