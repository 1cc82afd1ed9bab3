import FTSearchSQLite

/// Fills empty full-text indexes from their content tables in slices of rows, with the bulk
/// FTS5 settings (``IndexSync/bulkSettings``), reporting progress between slices: for a
/// migration that changes the tokenizer, and for an index built on first use (see
/// ``IndexBuilder``), so that either can show a progress line.
struct Reindexer {
    let database: Database
    /// Rows indexed per statement.
    var sliceSize = 50_000

    /// Indexes every row of each sync's kind into that sync's indexes; `onProgress` receives
    /// the rows done so far and the rows of all the kinds, after each slice.
    func indexAllRows(
        of syncs: [IndexSync], onProgress: (_ done: Int, _ total: Int) -> Void
    ) throws {
        let total = try syncs.reduce(0) {
            $0 + (try $1.kind.recordCount(in: database))
        }
        var done = 0
        for sync in syncs {
            try sync.withBulkSettings(in: database) {
                try indexAllRows(of: sync) { slice in
                    done += slice
                    onProgress(done, total)
                }
            }
        }
    }

    /// Indexes `sync`'s rows slice by slice, telling `onSlice` how many rows each held.
    private func indexAllRows(of sync: IndexSync, onSlice: (Int) -> Void) throws {
        let table = sync.kind.tableName
        let statements = try sync.indexRowRangeSQL.map { try database.makeStatement(sql: $0) }
        let boundary = try database.makeStatement(
            sql: "SELECT id FROM \(table) WHERE id >= ?1 ORDER BY id LIMIT 1 OFFSET ?2")
        var lower = Int64.min
        while true {
            let upper = try boundary.firstRow([lower, sliceSize]) { $0.int64(at: 0) }
            let bounds: StatementArguments = [lower, upper]
            for statement in statements {
                try statement.execute(bounds)
            }
            onSlice(
                try database.fetchInt(
                    sql: "SELECT count(*) FROM \(table) WHERE id >= ?1 AND (?2 IS NULL OR id < ?2)",
                    arguments: bounds) ?? 0)
            guard let upper else { break }
            lower = upper
        }
    }
}
