import FTSearchSQLite

/// Rows put in the reference plan's order where their scores tie, and everything is listed:
/// by group (of equal scores, best first), then sort key (NOCASE, see ``SortName``), kind and
/// id. Only the rows at the positions wanted are placed: by their sort codes (see
/// ``SortCodeTable``), a memory read a row, and by whole keys only where codes tie, so that a
/// page reads the keys of only the rows whose first three letters are those of its edges,
/// not every row.
struct SortKeyOrder {
    let database: Database

    /// The rows at positions `window` of `rows` in this order: by codes, then whole keys where
    /// codes tie; by SQLite (``orderedInSQL(_:first:)``) when a sort key cannot be read as text.
    func rows(
        at window: Range<Int>, of rows: ArraySlice<(group: Int, kind: Kind, rowid: Int64)>
    ) throws -> [(group: Int, kind: Kind, rowid: Int64)] {
        let ordered =
            if rows.count > 1, Ablation.uses(.sortCodes),
                let codes = try SortCodeTable(reading: rows, in: database)
            {
                self.rows(at: window, of: codes)
            } else {
                byKeys(rows, at: window)
            }
        return try ordered
            ?? Array(orderedInSQL(rows, first: window.upperBound).dropFirst(window.lowerBound))
    }

    /// The rows at positions `window` of the rows of `codes`, in this order.
    func rows(at window: Range<Int>, of codes: SortCodeTable)
        -> [(group: Int, kind: Kind, rowid: Int64)]?
    {
        codes.rows(at: window) { run, wanted in byKeys(run[...], at: wanted) }
    }

    /// The rows at positions `window` of `rows`, every key read.
    private func byKeys(
        _ rows: ArraySlice<(group: Int, kind: Kind, rowid: Int64)>, at window: Range<Int>
    ) -> [(group: Int, kind: Kind, rowid: Int64)]? {
        sortKeyTable(of: rows)?.rows(at: window).map { ($0.group, $0.kind, $0.rowid) }
    }

    /// The sort keys of `rows`, read in rowid order (each blob move then lands near the last);
    /// nil when a key cannot be read.
    ///
    /// Reading half of many keys on a second connection was measured and taken out: with the
    /// sort codes, a page reads the keys of only the rows whose codes tie at its edges, and
    /// deep pages of a million people were no faster with it (docs/architecture.md).
    private func sortKeyTable(of rows: ArraySlice<(group: Int, kind: Kind, rowid: Int64)>)
        -> SortKeyTable?
    {
        let visits = rows.sorted { a, b in
            a.kind != b.kind ? a.kind.rawValue < b.kind.rawValue : a.rowid < b.rowid
        }
        var keys = SortKeys(database: database)
        return SortKeyTable(reading: visits[...], with: &keys)
    }
}
