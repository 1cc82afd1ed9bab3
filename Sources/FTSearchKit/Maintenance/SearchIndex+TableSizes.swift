import FTSearchSQLite

/// The space one table (or index) of the database takes in the file.
public struct TableSize: Sendable, Equatable {
    /// The table's name (`people`, `people_fts_data`, ...).
    public var name: String
    /// The bytes of its pages.
    public var bytes: Int
    /// The bytes of its pages that hold data (its pages' bytes less their unused space).
    public var usedBytes: Int
}

extension SearchIndex {
    /// The space taken by the tables of one kind: its records and everything derived from
    /// them (full-text indexes, vocabulary, sort codes), table by table, as SQLite's `dbstat`
    /// counts it (https://sqlite.org/dbstat.html).
    ///
    /// ```swift
    /// let index = try SearchIndex(path: "people.sqlite")
    /// let bytes = try index.tableSizes(of: .people).reduce(0) { $0 + $1.bytes }
    /// ```
    ///
    /// - Throws: `SQLiteError` when SQLite fails.
    public func tableSizes(of kind: Kind) throws -> [TableSize] {
        let statement = try database.makeStatement(
            sql: "SELECT name, pgsize, pgsize - unused FROM dbstat WHERE aggregate = TRUE "
                + "ORDER BY name")
        var sizes: [TableSize] = []
        try statement.forEachRow { row in
            let name = row.text(at: 0) ?? ""
            guard name == kind.tableName || name.hasPrefix(kind.tableName + "_") else { return }
            sizes.append(TableSize(name: name, bytes: row.int(at: 1), usedBytes: row.int(at: 2)))
        }
        return sizes
    }
}
