import FTSearchSQLite

extension Database {
    /// Registers what ftsearch's indexes and searches need, on every connection as it opens
    /// (https://sqlite.org/fts5.html#extending_fts5): the folding tokenizers (`ftsearch`,
    /// `ftsearch_trigram`) that the indexes are declared with, and the `ftsearch_rank`
    /// auxiliary function of the fast ranking plan; and the `ftsearch_sort_code` function the
    /// sort codes' triggers call (see ``SortCodes``).
    ///
    /// - Throws: ``SQLiteError`` when this SQLite has no FTS5, or refuses a registration.
    func registerSearchExtensions() throws(SQLiteError) {
        try FoldingTokenizer.register(on: self)
        try FTS5RankFunction.register(on: self)
        try SortCodes.registerFunction(on: self)
    }
}
