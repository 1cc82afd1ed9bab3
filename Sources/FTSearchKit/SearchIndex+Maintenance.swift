/// Checking and repairing the database: `ftsearch check`, `optimize` and `rebuild`.
extension SearchIndex {
    /// Runs SQLite's `integrity_check` (https://sqlite.org/pragma.html#pragma_integrity_check)
    /// and FTS5's `integrity-check` of every index against its content table.
    ///
    /// - Returns: The problems found; empty when the database is sound.
    public func check() throws -> [String] {
        var problems: [String] = []
        try database.makeStatement(sql: "PRAGMA integrity_check").forEachRow { row in
            if let line = row.text(at: 0), line != "ok" { problems.append(line) }
        }
        for kind in Kind.allCases {
            let sync = IndexSync(kind: kind)
            for index in sync.indexes where try !isConsistent(index, of: sync) {
                problems.append(
                    "the \(index.name) index does not match the \(kind.tableName) table "
                        + "(run 'ftsearch rebuild')")
            }
        }
        return problems
    }

    private func isConsistent(_ index: FullTextIndex, of sync: IndexSync) throws -> Bool {
        do {
            try database.execute(sql: sync.integrityCheckSQL(of: index))
            return true
        } catch  where error.isCorruption {
            return false
        }
    }

    /// Rebuilds every full-text index from its content table, in one transaction.
    public func rebuild() throws {
        try database.inTransaction(.immediate) {
            for kind in Kind.allCases {
                try database.execute(sql: IndexSync(kind: kind).rebuildSQL)
            }
        }
    }

    /// Merges the index b-trees, refreshes the query planner's statistics, checkpoints the WAL,
    /// and vacuums when that would reclaim space.
    ///
    /// - Returns: The database size in bytes before and after.
    @discardableResult
    public func optimize() throws -> (before: Int, after: Int) {
        let before = try sizeInBytes()
        try database.inTransaction(.immediate) {
            for kind in Kind.allCases {
                try database.execute(sql: IndexSync(kind: kind).optimizeSQL)
            }
            try database.execute(sql: "ANALYZE")
        }
        if try database.fetchInt(sql: "PRAGMA freelist_count") ?? 0 > 0 {
            try database.execute(sql: "VACUUM")
        }
        try database.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        let after = try sizeInBytes()
        return (before, after)
    }
}
