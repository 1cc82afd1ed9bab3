package import FTSearchSQLite

/// How much memory a connection uses for the database file: how much of it SQLite maps into
/// memory (https://sqlite.org/mmap.html) and how large its page cache is
/// (https://sqlite.org/pragma.html#pragma_cache_size).
///
/// A ``SearchIndex`` maps up to a gigabyte: ranking reads pages all over the file, and reading
/// them from the mapping spares copying each one through read(2). But every page a search read
/// through a mapping counts in the process's resident memory, once for each connection that
/// mapped it; a ``SearchIndexPool`` has several, so a long-running server on a large file would
/// hold it several times over. Without the mapping, pages live in the operating system's file
/// cache, outside the process, and each connection copies the ones it uses into its own page
/// cache.
///
/// ```swift
/// let small = ConnectionMemoryLimits(mappedBytes: 0, pageCacheBytes: 16 << 20)
/// let pool = try SearchIndexPool(path: "people.sqlite", memoryLimits: small)
/// ```
public struct ConnectionMemoryLimits: Sendable, Equatable {
    /// The most bytes of the file mapped into memory; 0 maps none.
    public var mappedBytes: Int
    /// The most bytes of pages each connection keeps in its page cache.
    public var pageCacheBytes: Int

    /// The limits: `mappedBytes` of the file mapped, a page cache of `pageCacheBytes`.
    public init(mappedBytes: Int, pageCacheBytes: Int) {
        precondition(mappedBytes >= 0 && pageCacheBytes >= 0, "limits are not negative")
        self.mappedBytes = mappedBytes
        self.pageCacheBytes = pageCacheBytes
    }

    package func apply(to database: Database) throws(SQLiteError) {
        // A negative cache_size is in KiB.
        try database.execute(
            sql: "PRAGMA mmap_size = \(mappedBytes); PRAGMA cache_size = -\(pageCacheBytes / 1024)")
    }
}
