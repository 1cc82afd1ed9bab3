/// The sort keys of many rows in one buffer, and the rows at some positions of their order
/// found by selection rather than by sorting them all: a deep page that falls inside a group of
/// 53,380 equal scores orders the 20 rows it shows, after one pass that puts every other row on
/// the right side of them.
///
/// The order is ``RankedPage``'s: by group (of equal scores, best first), then as
/// ``SortKeys/precedes(_:_:)`` orders rows of one group — sort key (NOCASE), kind, id.
struct SortKeyTable {
    /// A row and where its key lies in the table's buffer.
    struct Row {
        var group: Int
        var kind: Kind
        var rowid: Int64
        fileprivate var keyStart: Int
        fileprivate var keyEnd: Int
    }

    private var bytes: [UInt8] = []
    private var rows: [Row] = []

    /// How many rows the table holds.
    var count: Int { rows.count }

    /// Reads the sort keys of `rows` with `keys`, in the order given (rowid order keeps each
    /// blob move near the last); nil when one cannot be read.
    init?(
        reading rows: some Collection<(group: Int, kind: Kind, rowid: Int64)>,
        with keys: inout SortKeys
    ) {
        self.rows.reserveCapacity(rows.count)
        for row in rows {
            let start = bytes.count
            guard keys.appendKey(of: row.kind, rowid: row.rowid, to: &bytes) else { return nil }
            self.rows.append(
                Row(
                    group: row.group, kind: row.kind, rowid: row.rowid, keyStart: start,
                    keyEnd: bytes.count))
        }
    }

    /// Adds the rows of `other`, read on another connection.
    mutating func append(contentsOf other: SortKeyTable) {
        let shift = bytes.count
        bytes += other.bytes
        rows += other.rows.map {
            var row = $0
            row.keyStart += shift
            row.keyEnd += shift
            return row
        }
    }

    /// The rows at `positions` of the order, in order (fewer when the table ends first).
    func rows(at positions: Range<Int>) -> [Row] {
        let window = positions.clamped(to: 0..<rows.count)
        guard !window.isEmpty else { return [] }
        var rows = self.rows
        bytes.withUnsafeBufferPointer { keys in
            func precedes(_ a: Row, _ b: Row) -> Bool {
                if a.group != b.group { return a.group < b.group }
                let order = SortName.compare(
                    UnsafeBufferPointer(rebasing: keys[a.keyStart..<a.keyEnd]),
                    UnsafeBufferPointer(rebasing: keys[b.keyStart..<b.keyEnd]))
                if order != 0 { return order < 0 }
                if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
                return a.rowid < b.rowid
            }
            rows.withUnsafeMutableBufferPointer { rows in
                rows.select(window.lowerBound, by: precedes)
                if window.count > 1 {
                    rows.select(window.upperBound - 1, from: window.lowerBound, by: precedes)
                }
                rows[window].sort(by: precedes)
            }
        }
        return Array(rows[window])
    }
}
