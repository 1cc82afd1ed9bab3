import FTSearchSQLite

extension Kind {
    /// How many records of this kind `database` holds.
    func recordCount(in database: Database) throws -> Int {
        try database.fetchInt(sql: "SELECT count(*) FROM \(tableName)") ?? 0
    }
}
