/// One term's doclist entries with their positions, for phrases of several terms (the
/// trigrams of a substring, a word anchored at its start or end): rowids ascending, and for
/// each entry its hits as `column << 32 | offset`, ascending, as FTS5 encodes a position
/// (fts5_index.c, "poslist format"; FTS5_POS2COLUMN). An entry without positions is a delete
/// marker. Only the entries of the rowids in ``wanted`` are kept, when it is set: a phrase
/// that only tells how a row matched is read for the rows that match, skipping the position
/// lists of the others. Kept in raw storage of its own, as ``DoclistEntries`` is.
package final class PhrasePositions {
    package private(set) var count = 0
    private var capacity: Int
    package private(set) var rowids: UnsafeMutablePointer<Int64>
    /// Entry `i`'s positions are `positions[starts[i] ..< starts[i + 1]]`.
    package private(set) var starts: UnsafeMutablePointer<Int>
    package private(set) var positions: UnsafeMutablePointer<UInt64>
    private var positionCount = 0
    private var positionCapacity: Int
    /// The memory `rowids`, `starts` and `positions` point into.
    private var rowidStorage = ScratchBuffer<Int64>(minimumCapacity: 64)
    private var startStorage = ScratchBuffer<Int>(minimumCapacity: 65)
    private var positionStorage = ScratchBuffer<UInt64>(minimumCapacity: 256)
    /// The rowids kept, or nil for all.
    private var wanted: WantedRows?
    /// The lowest and highest rowid of every entry decoded, kept or not.
    private var lowestDecoded = Int64.max
    private var highestDecoded = Int64.min
    /// The lowest through the highest rowid of every entry decoded, kept or not (nil when
    /// none).
    package var decodedRowids: ClosedRange<Int64>? {
        lowestDecoded <= highestDecoded ? lowestDecoded...highestDecoded : nil
    }

    package init(wanted: [Int64]? = nil) {
        self.wanted = wanted.map(WantedRows.init)
        (rowids, starts, positions) = (
            rowidStorage.pointer, startStorage.pointer, positionStorage.pointer
        )
        capacity = min(rowidStorage.capacity, startStorage.capacity - 1)
        positionCapacity = positionStorage.capacity
        starts[0] = 0
    }

    deinit {
        rowidStorage.release()
        startStorage.release()
        positionStorage.release()
    }

    private func reserveEntry() {
        guard count == capacity else { return }
        rowidStorage.reserve(count + 1, keeping: count)
        startStorage.reserve(count + 2, keeping: count + 1)
        (rowids, starts) = (rowidStorage.pointer, startStorage.pointer)
        capacity = min(rowidStorage.capacity, startStorage.capacity - 1)
    }

    @inline(__always)
    private func appendPosition(_ position: UInt64) {
        if positionCount == positionCapacity { reservePositions(positionCount + 1) }
        positions[positionCount] = position
        positionCount += 1
    }

    private func reservePositions(_ wanted: Int) {
        guard wanted > positionCapacity else { return }
        positionStorage.reserve(wanted, keeping: positionCount)
        positions = positionStorage.pointer
        positionCapacity = positionStorage.capacity
    }

    private func append(entry: Int, of other: PhrasePositions) {
        reserveEntry()
        rowids[count] = other.rowids[entry]
        let (from, to) = (other.starts[entry], other.starts[entry + 1])
        reservePositions(positionCount + to - from)
        (positions + positionCount).update(from: other.positions + from, count: to - from)
        positionCount += to - from
        count += 1
        starts[count] = positionCount
    }

    private func isDeleteMarker(_ entry: Int) -> Bool { starts[entry] == starts[entry + 1] }

    /// One term's entries from its lists in every segment, newest segment first: for a rowid
    /// the newest entry wins, and delete markers go (as
    /// ``DoclistEntries/resolving(newestFirst:columnCount:)`` resolves them). Segments of
    /// disjoint rowid ranges, as a bulk import writes them, are put end to end.
    package static func resolving(newestFirst lists: [PhrasePositions]) -> PhrasePositions {
        let resolved = PhrasePositions()
        if let order = DoclistEntries.endToEndOrder(
            of: lists.map { $0.count > 0 ? $0.rowids[0]...$0.rowids[$0.count - 1] : nil })
        {
            for list in order.map({ lists[$0] }) {
                for entry in 0..<list.count where !list.isDeleteMarker(entry) {
                    resolved.append(entry: entry, of: list)
                }
            }
            return resolved
        }
        var next = [Int](repeating: 0, count: lists.count)
        while true {
            // The lowest rowid at the lists' heads, from the newest list that has it.
            var chosen = -1
            for (list, entries) in lists.enumerated() where next[list] < entries.count {
                if chosen < 0 || entries.rowids[next[list]] < lists[chosen].rowids[next[chosen]] {
                    chosen = list
                }
            }
            guard chosen >= 0 else { return resolved }
            let rowid = lists[chosen].rowids[next[chosen]]
            if !lists[chosen].isDeleteMarker(next[chosen]) {
                resolved.append(entry: next[chosen], of: lists[chosen])
            }
            for (list, entries) in lists.enumerated()
            where next[list] < entries.count && entries.rowids[next[list]] == rowid {
                next[list] += 1
            }
        }
    }

    /// The hits of the phrase whose terms are `terms`, in order, each resolved: a hit where
    /// every term `k` is at the position of the first plus `k`, in the same column
    /// (fts5ExprPhraseIsMatch), counted per column in the columns of `countedColumns`; the
    /// rows without one are left out.
    package static func phraseHits(
        of terms: [PhrasePositions], columnCount: Int, countedColumns: UInt64
    ) -> DoclistEntries {
        precondition(!terms.isEmpty)
        let hits = DoclistEntries(columnCount: columnCount)
        // Plain pointers and counts for the loops below; the terms own the memory.
        defer { withExtendedLifetime(terms) {} }
        let rowids = terms.map(\.rowids)
        let counts = terms.map(\.count)
        let starts = terms.map(\.starts)
        let positions = terms.map(\.positions)
        var next = [Int](repeating: 0, count: terms.count)
        var cursors = [Int](repeating: 0, count: terms.count)
        var rowid = Int64.min
        while true {
            // Leapfrog: the lowest rowid at or after `rowid` in every term's list.
            var agreed = 0
            var term = 0
            while agreed < terms.count {
                let position = DoclistEntries.position(
                    atLeast: rowid, from: next[term], in: rowids[term], count: counts[term])
                next[term] = position
                guard position < counts[term] else { return hits }
                if rowids[term][position] == rowid {
                    agreed += 1
                } else {
                    (rowid, agreed) = (rowids[term][position], 1)
                }
                term = (term + 1) % terms.count
            }
            var entry = -1
            for later in 1..<terms.count { cursors[later] = starts[later][next[later]] }
            for index in starts[0][next[0]]..<starts[0][next[0] + 1] {
                let start = positions[0][index]
                var isHit = true
                for later in 1..<terms.count {
                    let end = starts[later][next[later] + 1]
                    let wanted = start + UInt64(later)
                    var cursor = cursors[later]
                    while cursor < end && positions[later][cursor] < wanted { cursor += 1 }
                    cursors[later] = cursor
                    if cursor == end || positions[later][cursor] != wanted {
                        isHit = false
                        break
                    }
                }
                let column = Int(start >> 32)
                guard isHit, countedColumns & 1 << column != 0 else { continue }
                if entry < 0 { entry = hits.append(rowid) }
                hits.addHit(at: entry, column: column)
            }
            for term in terms.indices { next[term] += 1 }
            guard rowid < .max else { return hits }
            rowid += 1
        }
    }
}

extension PhrasePositions: DoclistSink {
    /// Starts an entry for `rowid`, or returns -1 when it is not wanted.
    package func append(_ rowid: Int64) -> Int {
        lowestDecoded = min(lowestDecoded, rowid)
        highestDecoded = max(highestDecoded, rowid)
        if wanted != nil, !wanted!.contains(rowid) { return -1 }
        reserveEntry()
        rowids[count] = rowid
        count += 1
        starts[count] = positionCount
        return count - 1
    }

    /// Decodes a position list: offsets in column 0, then for each further column a 0x01
    /// byte, the column number, and its offsets, each a varint of the distance from the one
    /// before plus 2 (fts5PoslistNext).
    package func takePositions(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, entry: Int,
        columnCount: Int, countedColumns: UInt64
    ) throws(FTS5FormatError) {
        guard entry >= 0 else { return }
        var column: UInt64 = 0
        var position: UInt64 = 0
        var offset = start
        while offset < end {
            let value = try FTS5Format.varint(in: bytes, at: &offset, end: end)
            if value == 1 {
                let next = try FTS5Format.count(
                    in: bytes, at: &offset, end: end, limit: columnCount - 1)
                guard UInt64(next) > column || positionCount == starts[entry] else {
                    throw FTS5FormatError(reason: "column order")
                }
                (column, position) = (UInt64(next), 0)
                continue
            }
            guard value >= 2 else { throw FTS5FormatError(reason: "offset 0") }
            position += value - 2
            guard position <= 0x7FFF_FFFF else { throw FTS5FormatError(reason: "offset") }
            appendPosition(column << 32 | position)
        }
        starts[entry + 1] = positionCount
    }
}
