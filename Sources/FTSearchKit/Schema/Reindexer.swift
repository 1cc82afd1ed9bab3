/// Fills empty full-text indexes from the content tables in slices of rows, reporting progress
/// between slices, so that re-indexing a large database (a migration that changes the
/// tokenizer) can show the import's progress line.
struct Reindexer {
    let database: Database
    /// Rows indexed per statement.
    var sliceSize = 50_000

    /// Indexes every row of every kind into all of its indexes; `onProgress` receives the rows
    /// done as `recordsRead` and, as bytes, the rows done out of all rows.
    func indexAllRows(onProgress: (ImportProgress) -> Void) throws {
        let total = try Kind.allCases.reduce(0) {
            $0 + (try database.fetchInt(sql: "SELECT count(*) FROM \($1.tableName)") ?? 0)
        }
        var done = 0
        for kind in Kind.allCases {
            let sync = IndexSync(kind: kind)
            let statements = try sync.indexRowRangeSQL.map { try database.makeStatement(sql: $0) }
            let boundary = try database.makeStatement(
                sql: "SELECT id FROM \(kind.tableName) WHERE id >= ?1 ORDER BY id LIMIT 1 OFFSET ?2"
            )
            var lower = Int64.min
            while true {
                let upper = try boundary.firstRow([lower, sliceSize]) { $0.int64(at: 0) }
                let bounds: StatementArguments = [lower, upper]
                for statement in statements {
                    try statement.execute(bounds)
                }
                let slice =
                    try database.fetchInt(
                        sql:
                            "SELECT count(*) FROM \(kind.tableName) WHERE id >= ?1 AND (?2 IS NULL OR id < ?2)",
                        arguments: bounds) ?? 0
                done += slice
                onProgress(
                    ImportProgress(
                        recordsRead: done, bytesRead: Int64(done), totalBytes: Int64(total)))
                guard let upper else { break }
                lower = upper
            }
        }
    }
}
