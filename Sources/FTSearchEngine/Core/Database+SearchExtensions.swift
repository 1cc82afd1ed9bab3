package import FTSearchSQLite

extension Database {
    /// Registers what ftsearch's indexes and searches need, on every connection as it opens
    /// (https://sqlite.org/fts5.html#extending_fts5): the folding tokenizers (`ftsearch`,
    /// `ftsearch_trigram`) that the indexes are declared with, and the `ftsearch_rank`
    /// auxiliary function of the fast ranking plan; and the `ftsearch_sort_code` function the
    /// sort codes' triggers call (see ``SortCodes``).
    ///
    /// - Throws: ``SQLiteError`` when this SQLite has no FTS5, or refuses a registration.
    package func registerSearchExtensions() throws(SQLiteError) {
        try FoldingTokenizer.register(on: self)
        try FTS5RankFunction.register(on: self)
        try SortCodes.registerFunction(on: self)
    }

    /// What every connection to an ftsearch database needs before it reads an index: ftsearch's
    /// tokenizers and ranking function, and the file mapped into memory (ranking reads index
    /// pages and row sizes all over the file: mapping it spares copying each page through
    /// read(2) into a small page cache, https://sqlite.org/mmap.html). Writes still go through
    /// write(2).
    package func configureForSearch() throws(SQLiteError) {
        try registerSearchExtensions()
        try execute(sql: "PRAGMA mmap_size = \(Self.searchMappedBytes)")
    }

    /// How much of the file every connection maps, unless its ``ConnectionMemoryLimits`` say
    /// otherwise: a gigabyte.
    package static let searchMappedBytes = 1 << 30

    /// Opens another connection to the database at `path`, set up as every connection is (see
    /// ``configureForSearch()``), within `memoryLimits` when given.
    package static func openAdditionalConnection(
        path: String, memoryLimits: ConnectionMemoryLimits? = nil
    ) throws(SQLiteError) -> Database {
        let database = try Database(path: path)
        try database.configureForSearch()
        try memoryLimits?.apply(to: database)
        return database
    }
}
