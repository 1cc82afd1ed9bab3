import FTSearchSQLite

/// Counts, sizes and versions: what `ftsearch stats` shows.
extension SearchIndex {
    /// Counts, sizes and versions.
    public func statistics() throws -> IndexStatistics {
        var counts: [String: Int] = [:]
        for table in Kind.allCases.map(\.tableName) {
            counts[table] = try database.fetchInt(sql: "SELECT count(*) FROM \(table)") ?? 0
        }
        counts["history"] = try history.count()
        var substringIndexSizes: [Kind: Int] = [:]
        for kind in Kind.allCases {
            let substrings = FullTextIndex.substrings(of: kind)
            if try IndexSync(kind: kind, in: database).indexes.contains(substrings) {
                substringIndexSizes[kind] = try sizeInBytes(of: substrings)
            }
        }
        return IndexStatistics(
            path: path, schemaVersion: try schemaVersion, sqliteVersion: Database.sqliteVersion,
            sizeInBytes: try sizeInBytes(), people: counts["people"] ?? 0,
            animals: counts["animals"] ?? 0, historyEntries: counts["history"] ?? 0,
            substringIndexSizes: substringIndexSizes)
    }

    /// The bytes of the pages of `index`'s tables and its row sizes
    /// (https://sqlite.org/dbstat.html).
    private func sizeInBytes(of index: FullTextIndex) throws -> Int {
        let pages = try database.makeStatement(
            sql: "SELECT sum(pgsize) FROM dbstat WHERE name = ?1 AND aggregate = TRUE")
        return try (index.shadowTables + [index.sizesTable]).reduce(0) { total, table in
            total + (try pages.firstRow([table]) { $0.int(at: 0) } ?? 0)
        }
    }

    /// The size of the database in bytes (pages in use and free).
    func sizeInBytes() throws -> Int {
        let pages = try database.fetchInt(sql: "PRAGMA page_count") ?? 0
        let pageSize = try database.fetchInt(sql: "PRAGMA page_size") ?? 0
        return pages * pageSize
    }
}

/// What `ftsearch stats` shows.
public struct IndexStatistics: Sendable, Equatable {
    /// The database file.
    public var path: String
    /// The schema version (`PRAGMA user_version`).
    public var schemaVersion: Int
    /// The version of the SQLite library.
    public var sqliteVersion: String
    /// The size of the database in bytes.
    public var sizeInBytes: Int
    /// The number of people.
    public var people: Int
    /// The number of animals.
    public var animals: Int
    /// The number of history entries.
    public var historyEntries: Int
    /// The size in bytes of each kind's substring index, for the kinds that have one (the
    /// first substring search of a kind builds it).
    public var substringIndexSizes: [Kind: Int] = [:]
}
