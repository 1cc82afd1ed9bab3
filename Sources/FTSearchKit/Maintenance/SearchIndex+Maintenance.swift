import FTSearchSQLite

/// Checking and repairing the database: `ftsearch check`, `optimize` and `rebuild`.
extension SearchIndex {
    /// Runs SQLite's `integrity_check` (https://sqlite.org/pragma.html#pragma_integrity_check),
    /// then compares every piece of derived data with what it is derived from (see
    /// `DerivedData`): FTS5's `integrity-check` of every index against its content table, each
    /// index's row sizes with the index, each kind's sort codes with its records.
    ///
    /// FTS5 checks an index through a write statement, so a database this process can only
    /// read has its indexes checked in a private temporary copy (https://sqlite.org/backup.html).
    ///
    /// - Returns: The problems found; empty when the database is sound.
    public func check() throws -> [DatabaseProblem] {
        var problems: [DatabaseProblem] = []
        try database.makeStatement(sql: "PRAGMA integrity_check").forEachRow { row in
            if let line = row.text(at: 0), line != "ok" { problems.append(.integrity(line)) }
        }
        let scratch = readOnlyReason == nil ? database : try temporaryCopy()
        problems += try DerivedDataList.problems(in: database, scratch: scratch)
        return problems
    }

    /// A copy of the database in a temporary file that SQLite deletes when it is closed.
    private func temporaryCopy() throws -> Database {
        let copy = try Database(path: "")
        try copy.configureForSearch()
        try database.copy(into: copy)
        return copy
    }

    /// Makes every piece of derived data again (see `DerivedData`), in one transaction: every
    /// full-text index from its content table, the row sizes from the rebuilt indexes, the sort
    /// codes (and their map) from the records; kept rankings and vocabularies are forgotten.
    ///
    /// - Throws: ``ReadOnlyDatabaseError`` when this process cannot write the database.
    public func rebuild() throws {
        try requireWriteAccess(for: "rebuild the indexes")
        try database.inTransaction(.immediate) {
            try DerivedDataList.rebuild(in: database)
        }
    }

    /// Merges the index b-trees, drops the kept rankings and vocabularies (all stale once the
    /// indexes are merged, see `ResultCache`), refreshes the query planner's statistics,
    /// checkpoints the WAL (and the history's, see `HistoryFile`), and vacuums when that would
    /// reclaim space.
    ///
    /// - Returns: The database size in bytes before and after.
    /// - Throws: ``ReadOnlyDatabaseError`` when this process cannot write the database.
    @discardableResult
    public func optimize() throws -> (before: Int, after: Int) {
        try requireWriteAccess(for: "optimize the database")
        let before = try sizeInBytes()
        try database.inTransaction(.immediate) {
            try DerivedDataList.optimize(in: database)
            try database.execute(sql: "ANALYZE")
        }
        if try database.fetchInt(sql: "PRAGMA freelist_count") ?? 0 > 0 {
            try database.execute(sql: "VACUUM")
        }
        try database.checkpoint()
        try historyDatabase.checkpoint()
        let after = try sizeInBytes()
        return (before, after)
    }
}
