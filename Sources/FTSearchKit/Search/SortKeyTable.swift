/// The sort keys of many rows in one buffer, and the rows at some positions of their order
/// found by selection rather than by sorting them all: a deep page that falls inside a group of
/// 53,380 equal scores orders the 20 rows it shows, after one pass that puts every other row on
/// the right side of them.
///
/// The order is ``RankedPage``'s: by group (of equal scores, best first), then as
/// ``SortKeys/precedes(_:_:)`` orders rows of one group — sort key (NOCASE), kind, id.
///
/// A table may hold only the keys' beginnings (a person's last name and the space after it):
/// half the reads, and enough to tell which few rows can be at the positions wanted (see
/// ``narrowed(to:)``), whose whole keys are then read.
struct SortKeyTable {
    /// A row and where its key (or its key's beginning) lies in the table's buffer.
    struct Row {
        var group: Int
        var kind: Kind
        var rowid: Int64
        fileprivate var keyStart: Int
        fileprivate var keyEnd: Int
    }

    /// What it read of each key.
    let reading: Reading
    private var bytes: [UInt8] = []
    private var rows: [Row] = []

    /// How many rows the table holds.
    var count: Int { rows.count }

    /// What a table reads of each key.
    enum Reading: Equatable {
        case wholeKeys
        /// The first column and the space after it (see ``SortKeys/appendBeginning(of:rowid:to:)``).
        case beginnings
    }

    /// Reads the sort keys of `rows` (or their beginnings) with `keys`, in the order given
    /// (rowid order keeps each blob move near the last); nil when one cannot be read.
    init?(
        reading rows: some Collection<(group: Int, kind: Kind, rowid: Int64)>,
        _ reading: Reading = .wholeKeys, with keys: inout SortKeys
    ) {
        self.reading = reading
        self.rows.reserveCapacity(rows.count)
        for row in rows {
            let start = bytes.count
            let isRead =
                switch reading {
                case .wholeKeys: keys.appendKey(of: row.kind, rowid: row.rowid, to: &bytes)
                case .beginnings: keys.appendBeginning(of: row.kind, rowid: row.rowid, to: &bytes)
                }
            guard isRead else { return nil }
            self.rows.append(
                Row(
                    group: row.group, kind: row.kind, rowid: row.rowid, keyStart: start,
                    keyEnd: bytes.count))
        }
    }

    /// Adds the rows of `other`, read on another connection.
    mutating func append(contentsOf other: SortKeyTable) {
        precondition(other.reading == reading)
        let shift = bytes.count
        bytes += other.bytes
        rows += other.rows.map {
            var row = $0
            row.keyStart += shift
            row.keyEnd += shift
            return row
        }
    }

    /// The rows at `positions` of the order, in order (fewer when the table ends first). The
    /// table must hold whole keys.
    func rows(at positions: Range<Int>) -> [Row] {
        precondition(reading == .wholeKeys)
        let window = positions.clamped(to: 0..<rows.count)
        guard !window.isEmpty else { return [] }
        var rows = self.rows
        bytes.withUnsafeBufferPointer { keys in
            rows.withUnsafeMutableBufferPointer { rows in
                Self.place(window, in: rows, keys)
                rows[window].sort { Self.precedes($0, $1, keys) }
            }
        }
        return Array(rows[window])
    }

    /// The rows that can be at `positions` of the order, told from the keys' beginnings this
    /// table holds, and how many rows come before them all: the rows whose (group,
    /// beginning) lies between those of the rows at the first and the last position, ties
    /// included. Nil when the beginnings cannot tell: a key with a NUL byte (where NOCASE
    /// stops comparing), or a row outside that shares a whole word with the row at the edge
    /// of its side (`Van ` and `Van Der `: last names of several words do not order their
    /// keys as they order themselves).
    ///
    /// Why the others are in order: a key sorts at or after its beginning, and two beginnings
    /// that differ before either ends order their keys as they order themselves. A
    /// beginning that ends first (a proper beginning of the other) is either a whole key (an
    /// animal's name), which sorts before the other's key, or a last name and its space, so it
    /// and the other share a word: such a row outside, with a beginning that begins one
    /// inside, would share that word with the edge row between them.
    func narrowed(to positions: Range<Int>)
        -> (rows: [(group: Int, kind: Kind, rowid: Int64)], before: Int)?
    {
        precondition(reading == .beginnings)
        let window = positions.clamped(to: 0..<rows.count)
        guard !window.isEmpty else { return ([], 0) }
        return bytes.withUnsafeBufferPointer { keys in
            guard !keys.contains(0) else { return nil }
            var rows = self.rows
            rows.withUnsafeMutableBufferPointer { rows in Self.place(window, in: rows, keys) }
            let (first, last) = (rows[window.lowerBound], rows[window.upperBound - 1])
            var inside: [(group: Int, kind: Kind, rowid: Int64)] = []
            var before = 0
            for row in rows {
                if Self.compare(row, first, keys) < 0 {
                    guard row.group != first.group || !Self.shareAWord(row, first, keys) else {
                        return nil
                    }
                    before += 1
                } else if Self.compare(row, last, keys) > 0 {
                    guard row.group != last.group || !Self.shareAWord(row, last, keys) else {
                        return nil
                    }
                } else {
                    inside.append((row.group, row.kind, row.rowid))
                }
            }
            return (inside, before)
        }
    }

    /// Puts at `window`'s first and last positions of `rows` the rows that belong there in the
    /// order of ``precedes(_:_:_:)``, the rows between them between them, unordered.
    private static func place(
        _ window: Range<Int>, in rows: UnsafeMutableBufferPointer<Row>,
        _ keys: UnsafeBufferPointer<UInt8>
    ) {
        rows.select(window.lowerBound) { precedes($0, $1, keys) }
        rows.select(window.upperBound - 1, from: window.lowerBound) { precedes($0, $1, keys) }
    }

    /// The table's order: by ``compare(_:_:_:)``, then kind, then id.
    private static func precedes(_ a: Row, _ b: Row, _ keys: UnsafeBufferPointer<UInt8>) -> Bool {
        let order = compare(a, b, keys)
        return order != 0 ? order < 0 : (a.kind.rawValue, a.rowid) < (b.kind.rawValue, b.rowid)
    }

    /// The order of two rows by group, then key (or beginning), NOCASE.
    private static func compare(_ a: Row, _ b: Row, _ keys: UnsafeBufferPointer<UInt8>) -> Int {
        if a.group != b.group { return a.group < b.group ? -1 : 1 }
        return SortName.compare(
            UnsafeBufferPointer(rebasing: keys[a.keyStart..<a.keyEnd]),
            UnsafeBufferPointer(rebasing: keys[b.keyStart..<b.keyEnd]))
    }

    /// Whether the bytes `a` and `b` begin with, NOCASE, run up to a space in both.
    private static func shareAWord(_ a: Row, _ b: Row, _ keys: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        var (i, j) = (a.keyStart, b.keyStart)
        while i < a.keyEnd, j < b.keyEnd,
            SortName.lowercased(keys[i]) == SortName.lowercased(keys[j])
        {
            if keys[i] == 0x20 { return true }
            i += 1
            j += 1
        }
        return false
    }
}
