import FTSearchSQLite

extension SortKeyOrder {
    /// The `first` of `rows` in this order, by SQLite: `COLLATE NOCASE` on the whole sort
    /// names. The order's fallback, for names that cannot be read as text, and what the
    /// reference plan's SQL does for every row.
    func orderedInSQL(_ rows: ArraySlice<(group: Int, kind: Kind, rowid: Int64)>, first: Int)
        throws -> [(group: Int, kind: Kind, rowid: Int64)]
    {
        var members: [Kind: [String]] = [:]
        for row in rows {
            members[row.kind, default: []].append("[\(row.rowid),\(row.group)]")
        }
        let kinds = Kind.allCases.filter { members[$0] != nil }
        var arguments: StatementArguments = kinds.map {
            "[" + members[$0, default: []].joined(separator: ",") + "]"
        }
        arguments.append(first)
        var ordered: [(group: Int, kind: Kind, rowid: Int64)] = []
        try database.cachedStatement(sql: Self.orderSQL(for: kinds)).forEachRow(arguments) { row in
            ordered.append((row.int(at: 2), Kind(selectedAt: 0, of: row), row.int64(at: 1)))
        }
        return ordered
    }

    /// The first `?N` rows, from `[[rowid, group], ...]` per kind (one parameter each, then the
    /// count): `kind, id, group` ordered as the reference plan orders them.
    private static func orderSQL(for kinds: [Kind]) -> String {
        let selects = kinds.enumerated().map { offset, kind in
            """
            SELECT '\(kind.rawValue)' AS kind, c.id AS id, j.value ->> 1 AS grp,
                   \(SortName.sql(of: kind, table: "c")) AS sort_key
            FROM json_each(?\(offset + 1)) AS j JOIN \(kind.tableName) AS c ON c.id = j.value ->> 0
            """
        }
        return selects.joined(separator: "\nUNION ALL\n")
            + "\nORDER BY grp, sort_key COLLATE NOCASE, kind, id LIMIT ?\(kinds.count + 1)"
    }
}
