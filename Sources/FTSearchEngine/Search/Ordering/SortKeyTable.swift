import FTSearchSQLite

/// The sort keys of many rows in one buffer, and the rows at some positions of their order
/// found by selection rather than by sorting them all.
///
/// The order is ``RankedPage``'s: by group (of equal scores, best first), then as
/// ``SortKeys/precedes(_:_:)`` orders rows of one group — sort key (NOCASE), kind, id. Of many
/// rows, a ``SortCodeTable`` first tells which few can be at the positions wanted; only theirs
/// are read whole.
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
            rows.withUnsafeMutableBufferPointer { rows in
                let precedes = { (a: Row, b: Row) in Self.precedes(a, b, keys) }
                rows.select(window.lowerBound, by: precedes)
                rows.select(window.upperBound - 1, from: window.lowerBound, by: precedes)
                rows[window].sort(by: precedes)
            }
        }
        return Array(rows[window])
    }

    /// The table's order: by group, then key (NOCASE), then kind, then id.
    private static func precedes(_ a: Row, _ b: Row, _ keys: UnsafeBufferPointer<UInt8>) -> Bool {
        if a.group != b.group { return a.group < b.group }
        let order = SortName.compare(
            UnsafeBufferPointer(rebasing: keys[a.keyStart..<a.keyEnd]),
            UnsafeBufferPointer(rebasing: keys[b.keyStart..<b.keyEnd]))
        return order != 0 ? order < 0 : (a.kind.rawValue, a.rowid) < (b.kind.rawValue, b.rowid)
    }
}

/// The ``SortCodes`` of many rows, which tell the few of them that can be at some positions of
/// ``SortKeyTable``'s order: a deep page that falls inside a group of 73,000 equal scores reads
/// a code for each (from blocks of 512) and the whole keys of a few hundred.
struct SortCodeTable {
    private struct Row {
        var group: Int
        var code: UInt32
        var kind: Kind
        var rowid: Int64

        /// Whether the two rows are of one run: one group, one code.
        func sharesCode(with other: Row) -> Bool { (group, code) == (other.group, other.code) }
    }

    private var rows: [Row] = []

    /// Reads the codes of `rows` from `database`'s sort codes tables, block by block, in one
    /// read transaction (so that the connection keeps the blocks it reads); nil when one cannot
    /// be read.
    init?(
        reading rows: some Collection<(group: Int, kind: Kind, rowid: Int64)>,
        in database: Database
    ) throws {
        var table = rows.map { Row(group: $0.group, code: 0, kind: $0.kind, rowid: $0.rowid) }
        let isRead = try database.readingOneVersion {
            Kind.allCases.allSatisfy { kind in
                let blocks = SortCodes(of: kind).blocks
                let order = Self.inBlockOrder(table, of: kind, blocks: blocks)
                guard !order.isEmpty else { return true }
                let reader = RowBlockReader(database: database, blocks: blocks)
                let rowids = order.map { table[$0].rowid }
                return reader.forEachRow(rowids) { position, bytes in
                    table[order[position]].code = SortCodes.code(ofBytesAt: bytes)
                }
            }
        }
        guard isRead else { return nil }
        self.rows = table
    }

    /// The indices of `kind`'s rows among `rows`, in the order of their blocks, so that each
    /// block is read once: counted into place when the blocks they span are not many more
    /// than they are, else sorted by id.
    private static func inBlockOrder(_ rows: [Row], of kind: Kind, blocks: RowBlocks) -> [Int] {
        let mine = rows.indices.filter { rows[$0].kind == kind }
        let numbers = mine.map { blocks.block(ofRow: rows[$0].rowid) }
        guard let lowest = numbers.min(), let highest = numbers.max() else { return [] }
        guard highest - lowest < max(4 * Int64(mine.count), 4096) else {
            return mine.sorted { rows[$0].rowid < rows[$1].rowid }
        }
        // Where each block's rows begin in the order, then where the next of them goes.
        var next = [Int](repeating: 0, count: Int(highest - lowest) + 2)
        for number in numbers { next[Int(number - lowest) + 1] += 1 }
        for slot in next.indices.dropFirst() { next[slot] += next[slot - 1] }
        var order = [Int](repeating: 0, count: mine.count)
        for (index, number) in zip(mine, numbers) {
            order[next[Int(number - lowest)]] = index
            next[Int(number - lowest)] += 1
        }
        return order
    }

    /// Records of `kind` with their codes, in one group.
    init(_ records: [(rowid: Int64, code: UInt32)], of kind: Kind) {
        rows = records.map { Row(group: 0, code: $0.code, kind: kind, rowid: $0.rowid) }
    }

    /// The rows at `positions` of the order, in order: sorted by (group, code), and where
    /// rows share both (a run), in the order `orderRun` gives them (by whole key, kind and
    /// id). It is handed each run that reaches into the positions, whole, with the positions
    /// of its order it must give. Nil when `orderRun` gives nil.
    func rows(
        at positions: Range<Int>,
        orderingRunsBy orderRun: (
            _ run: [(group: Int, kind: Kind, rowid: Int64)], _ wanted: Range<Int>
        ) throws -> [(group: Int, kind: Kind, rowid: Int64)]?
    ) rethrows -> [(group: Int, kind: Kind, rowid: Int64)]? {
        let window = positions.clamped(to: 0..<rows.count)
        guard !window.isEmpty else { return [] }
        var (candidates, before) = narrowed(to: window)
        candidates.sort { ($0.group, $0.code) < ($1.group, $1.code) }
        let local = (window.lowerBound - before)..<(window.upperBound - before)
        var start = local.lowerBound
        while start > 0 && candidates[start - 1].sharesCode(with: candidates[start]) { start -= 1 }
        while start < local.upperBound {
            var end = start + 1
            while end < candidates.count && candidates[end].sharesCode(with: candidates[start]) {
                end += 1
            }
            if end - start > 1 {
                let wanted =
                    (max(start, local.lowerBound) - start)..<(min(end, local.upperBound) - start)
                guard
                    let ordered = try orderRun(
                        candidates[start..<end].map { ($0.group, $0.kind, $0.rowid) }, wanted)
                else { return nil }
                for (slot, row) in zip(
                    start + wanted.lowerBound..<start + wanted.upperBound, ordered)
                {
                    candidates[slot] = Row(
                        group: row.group, code: candidates[slot].code, kind: row.kind,
                        rowid: row.rowid)
                }
            }
            start = end
        }
        return candidates[local].map { ($0.group, $0.kind, $0.rowid) }
    }

    /// The rows that can be at `positions` of the order, and how many rows come before them
    /// all: those whose (group, code) lies between those of the rows at the first and the last
    /// position, ties included. A row whose (group, code) is below the first's comes before
    /// every row from the first on, since a lower code sorts first (see
    /// ``SortCodeMap/code(ofFolded:)``); one above the last's after every row up to the last.
    private func narrowed(to window: Range<Int>) -> (rows: [Row], before: Int) {
        var rows = self.rows
        let (first, last) = rows.withUnsafeMutableBufferPointer { rows in
            let precedes = { (a: Row, b: Row) in (a.group, a.code) < (b.group, b.code) }
            rows.select(window.lowerBound, by: precedes)
            rows.select(window.upperBound - 1, from: window.lowerBound, by: precedes)
            return (rows[window.lowerBound], rows[window.upperBound - 1])
        }
        var inside: [Row] = []
        var before = 0
        for row in rows {
            if (row.group, row.code) < (first.group, first.code) {
                before += 1
            } else if (row.group, row.code) <= (last.group, last.code) {
                inside.append(row)
            }
        }
        return (inside, before)
    }
}
