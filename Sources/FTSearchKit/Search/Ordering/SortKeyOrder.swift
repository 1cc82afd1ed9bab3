import FTSearchSQLite

/// Rows put in the reference plan's order where their scores tie, and everything is listed:
/// by group (of equal scores, best first), then sort key (NOCASE, see ``SortName``), kind and
/// id. Only the rows at the positions wanted are placed: by their sort codes (see
/// ``SortCodeTable``), a memory read a row, and by whole keys only where codes tie, so that a
/// page reads the keys of only the rows whose first three letters are those of its edges,
/// not every row.
struct SortKeyOrder {
    let database: Database
    /// A second connection that reads half of many keys (see ``sortKeyTable(of:)``).
    var helper: () -> RankingHelper? = { nil }

    /// Groups of equal scores from this many rows on have their sort keys read in two halves
    /// at once, here and on the helper's connection.
    static let parallelSortKeyMinimum = 256

    /// The rows at positions `window` of `rows` in this order: by codes, then whole keys where
    /// codes tie; by SQLite (``orderedInSQL(_:first:)``) when a sort key cannot be read as text.
    func rows(
        at window: Range<Int>, of rows: ArraySlice<(group: Int, kind: Kind, rowid: Int64)>
    ) throws -> [(group: Int, kind: Kind, rowid: Int64)] {
        let ordered =
            if rows.count > 1, Ablation.uses(.sortCodes),
                let codes = try SortCodeTable(reading: rows, in: database)
            {
                try self.rows(at: window, of: codes)
            } else {
                try byKeys(rows, at: window)
            }
        return try ordered
            ?? Array(orderedInSQL(rows, first: window.upperBound).dropFirst(window.lowerBound))
    }

    /// The rows at positions `window` of the rows of `codes`, in this order.
    func rows(at window: Range<Int>, of codes: SortCodeTable) throws
        -> [(group: Int, kind: Kind, rowid: Int64)]?
    {
        try codes.rows(at: window) { run, wanted in try byKeys(run[...], at: wanted) }
    }

    /// The rows at positions `window` of `rows`, every key read.
    private func byKeys(
        _ rows: ArraySlice<(group: Int, kind: Kind, rowid: Int64)>, at window: Range<Int>
    ) throws -> [(group: Int, kind: Kind, rowid: Int64)]? {
        try sortKeyTable(of: rows)?.rows(at: window).map { ($0.group, $0.kind, $0.rowid) }
    }

    /// The sort keys of `rows`, read in rowid order (each blob move then lands near the last);
    /// from ``parallelSortKeyMinimum`` rows on, their two halves at once, here and on the
    /// helper's connection, which reads its half in one read transaction and only when that
    /// reads the version of the names read here (else, or when the helper fails, that half is
    /// read here too). Nil when a key cannot be read.
    private func sortKeyTable(of rows: ArraySlice<(group: Int, kind: Kind, rowid: Int64)>)
        throws -> SortKeyTable?
    {
        let visits = rows.sorted { a, b in
            a.kind != b.kind ? a.kind.rawValue < b.kind.rawValue : a.rowid < b.rowid
        }
        @Sendable func read(
            _ rows: ArraySlice<(group: Int, kind: Kind, rowid: Int64)>, on database: Database
        ) -> SortKeyTable? {
            var keys = SortKeys(database: database)
            return SortKeyTable(reading: rows, with: &keys)
        }
        guard visits.count >= Self.parallelSortKeyMinimum, Ablation.uses(.parallelSortKeys),
            let helper = helper()
        else {
            return read(visits[...], on: database)
        }
        let half = visits.count / 2
        let kinds = Kind.allCases.filter { kind in visits.contains { $0.kind == kind } }
        let version = try Self.version(of: kinds, in: database)
        let (mine, theirs) = try helper.inHalves(database) {
            read(visits[..<half], on: database)
        } theirs: { database in
            try database.readingOneVersion {
                try Self.version(of: kinds, in: database) == version
                    ? read(visits[half...], on: database) : nil
            }
        }
        guard var table = mine, let upper = theirs ?? read(visits[half...], on: database) else {
            return nil
        }
        table.append(contentsOf: upper)
        return table
    }

    /// Which version of the sort names of `kinds` `database` reads: their word indexes'
    /// structure records, which every write to a sort name changes (it writes the index).
    private static func version(of kinds: [Kind], in database: Database) throws -> [[UInt8]] {
        try kinds.map { try IndexStructure.record(ofIndexNamed: $0.indexName, in: database) }
    }
}
