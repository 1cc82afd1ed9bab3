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
                let reader = RowBlockReader(database: database, blocks: blocks)
                for index in Self.inBlockOrder(table, of: kind, blocks: blocks) {
                    guard let code = reader.code(ofRow: table[index].rowid) else { return false }
                    table[index].code = code
                }
                return true
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

    /// The rows at `positions` of the order, in order: sorted by (group, code), and where
    /// rows share both, by their whole keys, which `readKeys` reads of those rows only (of the
    /// runs of equal codes that reach into the positions). Nil when `readKeys` gives nil.
    func rows(
        at positions: Range<Int>,
        tiesOrderedBy readKeys: ([(group: Int, kind: Kind, rowid: Int64)]) throws
            -> SortKeyTable?
    ) rethrows -> [(group: Int, kind: Kind, rowid: Int64)]? {
        let window = positions.clamped(to: 0..<rows.count)
        guard !window.isEmpty else { return [] }
        var (candidates, before) = narrowed(to: window)
        candidates.sort { ($0.group, $0.code) < ($1.group, $1.code) }
        func tie(_ a: Int, _ b: Int) -> Bool {
            (candidates[a].group, candidates[a].code) == (candidates[b].group, candidates[b].code)
        }
        let local = (window.lowerBound - before)..<(window.upperBound - before)
        // The runs of equal (group, code) that reach into the positions, whole.
        var (first, end) = (local.lowerBound, local.upperBound)
        while first > 0 && tie(first - 1, first) { first -= 1 }
        while end < candidates.count && tie(end - 1, end) { end += 1 }
        let tied = (first..<end).filter {
            ($0 > 0 && tie($0 - 1, $0)) || ($0 + 1 < candidates.count && tie($0, $0 + 1))
        }
        if !tied.isEmpty {
            // Sorted by key, the tied rows come in (group, code) order, run after run; those
            // of the slots inside the positions are a range of them.
            guard
                let keys = try readKeys(
                    tied.map { (candidates[$0].group, candidates[$0].kind, candidates[$0].rowid) })
            else { return nil }
            let inside = tied.indices.filter { local.contains(tied[$0]) }
            if let low = inside.first, let high = inside.last {
                for (slot, row) in zip(tied[low...high], keys.rows(at: low..<high + 1)) {
                    candidates[slot] = Row(
                        group: row.group, code: candidates[slot].code, kind: row.kind,
                        rowid: row.rowid)
                }
            }
        }
        return candidates[local].map { ($0.group, $0.kind, $0.rowid) }
    }

    /// The rows that can be at `positions` of the order, and how many rows come before them
    /// all: those whose (group, code) lies between those of the rows at the first and the last
    /// position, ties included. A row whose (group, code) is below the first's comes before
    /// every row from the first on, since a lower code sorts first (see
    /// ``SortCodes/code(ofKey:)``); one above the last's after every row up to the last.
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
