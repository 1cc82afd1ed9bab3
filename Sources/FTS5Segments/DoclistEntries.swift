/// Doclist entries decoded for ranking: rowids in ascending order and, for each entry, its
/// number of hits in each column (counted only in the columns searched). Kept in raw storage
/// of its own (from ``ScratchMemory``), so that the per-entry loops read plain memory.
///
/// With ``wanted`` rows, only their hits are counted when every column is searched: the
/// entry of another row keeps one hit in its first column (none for a delete marker) and its
/// position list is passed over. That is all such a row is needed for: to count the rows a
/// phrase hits (bm25's IDF), as a search of several tokens does for every phrase, while only
/// the rows every token matches are scored.
public final class DoclistEntries {
    package let columnCount: Int
    /// The rows whose hits are counted; nil for all.
    private var wanted: WantedRows?
    /// Whether the entry being decoded is of a wanted row.
    private var isWantedEntry = true
    // Stored properties other modules read (the engine reads them between decodes) are
    // `@exclusivity(unchecked)`: package-visible class properties would otherwise pay a
    // runtime exclusivity check on every access, in the decoding loops too.
    @exclusivity(unchecked) package private(set) var count = 0
    @exclusivity(unchecked) package private(set) var rowids: UnsafeMutablePointer<Int64>
    /// `columnCount` counts per entry.
    @exclusivity(unchecked) package private(set) var hits: UnsafeMutablePointer<UInt32>
    /// How many entries fit.
    private var capacity: Int
    /// The memory `rowids` and `hits` point into.
    private var rowidStorage: ScratchBuffer<Int64>
    private var hitStorage: ScratchBuffer<UInt32>

    package init(columnCount: Int, capacity: Int = 64, wanted: [Int64]? = nil) {
        precondition(columnCount > 0 && capacity > 0)
        self.columnCount = columnCount
        self.wanted = wanted.map(WantedRows.init)
        let rowids = ScratchBuffer<Int64>(minimumCapacity: capacity)
        let hits = ScratchBuffer<UInt32>(minimumCapacity: capacity * columnCount)
        (rowidStorage, hitStorage) = (rowids, hits)
        (self.rowids, self.hits) = (rowids.pointer, hits.pointer)
        self.capacity = min(rowids.capacity, hits.capacity / columnCount)
    }

    deinit {
        rowidStorage.release()
        hitStorage.release()
    }

    private func reserve(_ wanted: Int) {
        guard wanted > capacity else { return }
        rowidStorage.reserve(wanted, keeping: count)
        hitStorage.reserve(wanted * columnCount, keeping: count * columnCount)
        (rowids, hits) = (rowidStorage.pointer, hitStorage.pointer)
        capacity = min(rowidStorage.capacity, hitStorage.capacity / columnCount)
        zeroedEntries = count
    }

    /// The entries from `count` up to this one have no hits yet: their counts are zeroed a
    /// thousand entries at a time, not one entry at a time.
    private var zeroedEntries = 0

    private func zeroAhead() {
        if count == capacity { reserve(count + 1) }
        let end = min(capacity, count + 1024)
        (hits + count * columnCount).update(repeating: 0, count: (end - count) * columnCount)
        zeroedEntries = end
    }

    /// Starts an entry for `rowid`, with no hits yet; returns where its counts start in `hits`.
    @inline(__always)
    public func append(_ rowid: Int64) -> Int {
        if wanted != nil { isWantedEntry = wanted!.contains(rowid) }
        if count == zeroedEntries { zeroAhead() }
        if count > 0 && rowids[count - 1] >= rowid { isResolved = false }
        rowids[count] = rowid
        count += 1
        return (count - 1) * columnCount
    }

    /// Adds a hit in `column` to the entry whose counts start at `start`.
    @inline(__always)
    package func addHit(at start: Int, column: Int) {
        hits[start + column] &+= 1
    }

    @inline(__always)
    private func hasHits(_ entry: Int) -> Bool {
        Self.hasHits(entry, in: hits, columnCount: columnCount)
    }

    /// Whether entry `entry` of `hits` (`columnCount` counts per entry) has a hit.
    @inlinable @inline(__always)
    public static func hasHits(_ entry: Int, in hits: UnsafePointer<UInt32>, columnCount: Int)
        -> Bool
    {
        let start = entry * columnCount
        for column in 0..<columnCount where hits[start + column] > 0 { return true }
        return false
    }

    @inline(__always)
    private func append(entry: Int, of other: DoclistEntries) {
        if count == capacity { reserve(count + 1) }
        isResolved = false
        rowids[count] = other.rowids[entry]
        (hits + count * columnCount).update(
            from: other.hits + entry * columnCount, count: columnCount)
        count += 1
        zeroedEntries = max(zeroedEntries, count)
    }

    /// Appends the entries in `range` of `other`, with one copy each of their rowids and hits.
    private func append(entries range: Range<Int>, of other: DoclistEntries) {
        guard !range.isEmpty else { return }
        reserve(count + range.count)
        isResolved = false
        (rowids + count).update(from: other.rowids + range.lowerBound, count: range.count)
        (hits + count * columnCount).update(
            from: other.hits + range.lowerBound * columnCount, count: range.count * columnCount)
        count += range.count
        zeroedEntries = max(zeroedEntries, count)
    }

    /// Whether the entries are known to be one resolved list: rowids strictly ascending (no
    /// rowid in two segments) and each entry with a hit (no delete marker, nothing filtered
    /// out). Kept as entries are decoded (``append(_:)``, ``takePositions(in:from:to:entry:columnCount:countedColumns:)``);
    /// false once entries are copied in from other lists.
    @exclusivity(unchecked) package private(set) var isResolved = true

    /// A copy of the entries in `range`.
    package func entries(in range: Range<Int>) -> DoclistEntries {
        let copy = DoclistEntries(columnCount: columnCount, capacity: max(1, range.count))
        for entry in range { copy.append(entry: entry, of: self) }
        return copy
    }

    /// One term's entries from its lists in every segment, newest segment first: for a rowid
    /// the newest entry wins (fts5MultiIterDoCompare) and older ones are dropped; then the
    /// entries without a hit go, delete markers (an empty position list) and rows with hits
    /// only in columns not searched alike. Segments of disjoint rowid ranges, as a bulk import
    /// writes them, are simply put end to end.
    package static func resolving(newestFirst lists: [DoclistEntries], columnCount: Int)
        -> DoclistEntries
    {
        let merged =
            endToEndOrder(of: lists.map(\.rowidSpan)).map { $0.map { lists[$0] } }
            ?? [
                merging(
                    lists.enumerated().filter { $1.count > 0 }.map { ($1, $0) },
                    columnCount: columnCount, sumsHits: false)
            ]
        let resolved = DoclistEntries(
            columnCount: columnCount, capacity: max(1, merged.reduce(0) { $0 + $1.count }))
        for list in merged {
            for entry in 0..<list.count where list.hasHits(entry) {
                resolved.append(entry: entry, of: list)
            }
        }
        return resolved
    }

    /// The lowest through the highest rowid; nil when there is no entry.
    package var rowidSpan: ClosedRange<Int64>? { count > 0 ? rowids[0]...rowids[count - 1] : nil }

    /// The order in which lists of ascending rowids spanning `spans` (nil: an empty list, left
    /// out) go end to end: by rowid, when no two spans overlap, as a bulk import's segments'
    /// do; nil when some do.
    package static func endToEndOrder(of spans: [ClosedRange<Int64>?]) -> [Int]? {
        let order = spans.indices.filter { spans[$0] != nil }
            .sorted { spans[$0]!.lowerBound < spans[$1]!.lowerBound }
        let isDisjoint = zip(order, order.dropFirst()).allSatisfy { earlier, later in
            spans[earlier]!.upperBound < spans[later]!.lowerBound
        }
        return isDisjoint ? order : nil
    }

    /// The entries of several terms of one prefix phrase, each list already resolved: the
    /// phrase hits a row where any of its terms does, as often as they all do.
    package static func union(_ lists: [DoclistEntries], columnCount: Int) -> DoclistEntries {
        guard lists.count != 1 else { return lists[0] }
        return merging(
            lists.enumerated().map { ($1, $0) }, columnCount: columnCount, sumsHits: true)
    }

    /// Merges sorted lists by rowid. For a rowid in several, the entry of the lowest age is
    /// kept, and the others' hits are added to it (`sumsHits`, a union) or dropped. A run of
    /// one list's rowids below every other list's next one is copied whole: after writes, an
    /// import's big segment and the few rows each write put in a small one merge at the speed
    /// of a copy.
    private static func merging(
        _ lists: [(entries: DoclistEntries, age: Int)], columnCount: Int, sumsHits: Bool
    ) -> DoclistEntries {
        let merged = DoclistEntries(
            columnCount: columnCount, capacity: max(1, lists.reduce(0) { $0 + $1.entries.count }))
        var positions = [Int](repeating: 0, count: lists.count)
        while true {
            var lowest: Int64 = .max
            var chosen = -1
            // The lowest rowid of the lists other than the chosen one.
            var nextOther: Int64 = .max
            for (list, item) in lists.enumerated() where positions[list] < item.entries.count {
                let rowid = item.entries.rowids[positions[list]]
                if chosen < 0 || rowid < lowest || (rowid == lowest && item.age < lists[chosen].age)
                {
                    if chosen >= 0 { nextOther = min(nextOther, lowest) }
                    lowest = rowid
                    chosen = list
                } else {
                    nextOther = min(nextOther, rowid)
                }
            }
            guard chosen >= 0 else { return merged }
            let entries = lists[chosen].entries
            if lowest < nextOther {
                // No other list has a rowid before `nextOther`: copy the run up to it.
                let end = position(
                    atLeast: nextOther, from: positions[chosen], in: entries.rowids,
                    count: entries.count)
                merged.append(entries: positions[chosen]..<end, of: entries)
                positions[chosen] = end
                continue
            }
            merged.append(entry: positions[chosen], of: entries)
            let keptStart = (merged.count - 1) * columnCount
            for (list, item) in lists.enumerated()
            where list != chosen && positions[list] < item.entries.count
                && item.entries.rowids[positions[list]] == lowest
            {
                if sumsHits {
                    let start = positions[list] * columnCount
                    for column in 0..<columnCount {
                        merged.hits[keptStart + column] &+= item.entries.hits[start + column]
                    }
                }
                positions[list] += 1
            }
            positions[chosen] += 1
        }
    }

    /// The first of `count` rowids at or after `position` that is at least `rowid` (galloping,
    /// so that a short list walks a long one in few steps).
    @inlinable @inline(__always)
    package static func position(
        atLeast rowid: Int64, from position: Int, in rowids: UnsafePointer<Int64>,
        count: Int
    ) -> Int {
        guard position < count, rowids[position] < rowid else { return position }
        var low = position
        var step = 1
        while low + step < count && rowids[low + step] < rowid {
            low += step
            step <<= 1
        }
        var high = min(low + step, count)
        low += 1
        while low < high {
            let middle = (low + high) / 2
            if rowids[middle] < rowid { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension DoclistEntries: DoclistSink {
    /// Counts the hits of the position list `bytes[start..<end]` per column, into the entry's
    /// counts starting at `hitsStart` (see ``DoclistSink``).
    @inline(__always)
    public func takePositions(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, entry hitsStart: Int,
        columnCount: Int, countedColumns: UInt64
    ) throws(FTS5FormatError) {
        if !isWantedEntry && Self.searchesEveryColumn(countedColumns, of: columnCount) {
            if end > start { hits[hitsStart] = 1 } else { isResolved = false }
            return
        }
        try Self.forEachColumn(
            in: bytes, from: start, to: end, columnCount: columnCount,
            countedColumns: countedColumns
        ) { column, count in hits[hitsStart + column] &+= count }
        if !hasHits(hitsStart / columnCount) { isResolved = false }
    }

    /// Whether `countedColumns` has the bit of each of `columnCount` columns: then every
    /// position of a list is a hit, and a list that is not empty has one.
    @inlinable @inline(__always)
    public static func searchesEveryColumn(_ countedColumns: UInt64, of columnCount: Int) -> Bool {
        // A masking shift: `columnCount` is 1 through 64, and `>>` would test for more.
        countedColumns == UInt64.max &>> UInt64(truncatingIfNeeded: 64 - columnCount)
    }

    /// Calls `body` with each column of a position list that has hits and its bit set in
    /// `countedColumns`, and its number of hits: offsets in column 0, then for each further
    /// column a 0x01 byte, the column number, and its offsets, each offset a varint of at
    /// least 2. Most offsets are one byte, counted without leaving the loop.
    @inlinable @inline(__always)
    public static func forEachColumn(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, columnCount: Int,
        countedColumns: UInt64, _ body: (_ column: Int, _ hits: UInt32) -> Void
    ) throws(FTS5FormatError) {
        var column = 0
        var count: UInt32 = 0
        var offset = start
        while offset < end {
            let byte = bytes[offset]
            if byte >= 2 && byte < 0x80 {
                count &+= 1
                offset += 1
                continue
            }
            if byte == 0x01 {
                if count > 0 && countedColumns & 1 << column != 0 { body(column, count) }
                count = 0
                offset += 1
                column = try FTS5Format.count(
                    in: bytes, at: &offset, end: end, limit: columnCount - 1)
                continue
            }
            guard byte != 0 else { throw FTS5FormatError(reason: "offset 0") }
            var length = 1
            while bytes[offset] & 0x80 != 0 {
                offset += 1
                length += 1
                guard offset < end, length <= 9 else {
                    throw FTS5FormatError(reason: "offset varint")
                }
            }
            offset += 1
            count &+= 1
        }
        if count > 0 && countedColumns & 1 << column != 0 { body(column, count) }
    }
}

/// Rowids asked for, ascending, looked up in the order a doclist's entries come: each
/// segment's rowids ascend, so each lookup goes on from the one before until a segment starts
/// over.
package struct WantedRows {
    private let rowids: [Int64]
    private var position = 0
    /// The last rowid looked up, and the first wanted one from there (`.max`: none).
    private var last = Int64.min
    private var next = Int64.min

    package init(_ rowids: [Int64]) { self.rowids = rowids }

    @inline(__always)
    package mutating func contains(_ rowid: Int64) -> Bool {
        // Most rowids of a long doclist come before the next one wanted.
        if rowid >= last && rowid < next {
            last = rowid
            return false
        }
        return find(rowid)
    }

    private mutating func find(_ rowid: Int64) -> Bool {
        if rowid < last { position = 0 }
        last = rowid
        position = rowids.withUnsafeBufferPointer { rows in
            rows.baseAddress.map {
                DoclistEntries.position(atLeast: rowid, from: position, in: $0, count: rows.count)
            } ?? 0
        }
        next = position < rowids.count ? rowids[position] : .max
        return next == rowid
    }
}
