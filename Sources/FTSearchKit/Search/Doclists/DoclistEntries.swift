/// Doclist entries decoded for ranking: rowids in ascending order and, for each entry, its
/// number of hits in each column (counted only in the columns searched).
struct DoclistEntries {
    let columnCount: Int
    private(set) var rowids: [Int64] = []
    /// `columnCount` counts per entry.
    private(set) var hits: [UInt32] = []
    /// The newest segment (0) the entry came from, while segments are merged.
    private var ages: [Int] = []

    init(columnCount: Int) {
        self.columnCount = columnCount
    }

    var count: Int { rowids.count }

    /// Starts an entry for `rowid`, with no hits yet; returns where its counts start in `hits`.
    mutating func append(_ rowid: Int64) -> Int {
        rowids.append(rowid)
        hits.append(contentsOf: repeatElement(0, count: columnCount))
        return hits.count - columnCount
    }

    /// Adds a hit in `column` to the entry whose counts start at `start`.
    @inline(__always)
    mutating func addHit(at start: Int, column: Int) {
        hits[start + column] &+= 1
    }

    private func hasHits(_ entry: Int) -> Bool {
        let start = entry * columnCount
        return hits[start..<start + columnCount].contains { $0 > 0 }
    }

    private mutating func append(entry: Int, of other: DoclistEntries, age: Int) {
        rowids.append(other.rowids[entry])
        let start = entry * columnCount
        hits.append(contentsOf: other.hits[start..<start + columnCount])
        ages.append(age)
    }

    /// One term's entries from its lists in every segment, newest segment first: for a rowid
    /// the newest entry wins (fts5MultiIterDoCompare) and older ones are dropped; then the
    /// entries without a hit go, delete markers (an empty position list) and rows with hits
    /// only in columns not searched alike. Segments of disjoint rowid ranges, as a bulk import
    /// writes them, are simply put end to end.
    static func resolving(newestFirst lists: [DoclistEntries], columnCount: Int)
        -> DoclistEntries
    {
        var resolved = DoclistEntries(columnCount: columnCount)
        let order = lists.indices.filter { lists[$0].count > 0 }
            .sorted { lists[$0].rowids[0] < lists[$1].rowids[0] }
        let isDisjoint = zip(order, order.dropFirst()).allSatisfy { earlier, later in
            lists[earlier].rowids[lists[earlier].count - 1] < lists[later].rowids[0]
        }
        if isDisjoint {
            for list in order {
                for entry in 0..<lists[list].count where lists[list].hasHits(entry) {
                    resolved.append(entry: entry, of: lists[list], age: list)
                }
            }
        } else {
            resolved = merging(
                order.map { (lists[$0], $0) }, columnCount: columnCount, sumsHits: false)
            resolved = resolved.filtered { resolved.hasHits($0) }
        }
        resolved.ages = []
        return resolved
    }

    /// The entries of several terms of one prefix phrase, each list already resolved: the
    /// phrase hits a row where any of its terms does, as often as they all do.
    static func union(_ lists: [DoclistEntries], columnCount: Int) -> DoclistEntries {
        guard lists.count != 1 else { return lists[0] }
        var merged = merging(
            lists.enumerated().map { ($1, $0) }, columnCount: columnCount, sumsHits: true)
        merged.ages = []
        return merged
    }

    /// Merges sorted lists by rowid. For a rowid in several, the entry of the lowest age is
    /// kept, and the others' hits are added to it (`sumsHits`, a union) or dropped.
    private static func merging(
        _ lists: [(entries: DoclistEntries, age: Int)], columnCount: Int, sumsHits: Bool
    ) -> DoclistEntries {
        var merged = DoclistEntries(columnCount: columnCount)
        var positions = [Int](repeating: 0, count: lists.count)
        while true {
            var lowest: Int64 = .max
            var chosen: Int?
            for (list, item) in lists.enumerated() where positions[list] < item.entries.count {
                let rowid = item.entries.rowids[positions[list]]
                if rowid < lowest || (rowid == lowest && item.age < lists[chosen!].age) {
                    lowest = rowid
                    chosen = list
                }
            }
            guard let chosen else { return merged }
            merged.append(entry: positions[chosen], of: lists[chosen].entries, age: chosen)
            let keptStart = merged.hits.count - columnCount
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

    private func filtered(_ isKept: (Int) -> Bool) -> DoclistEntries {
        var kept = DoclistEntries(columnCount: columnCount)
        for entry in 0..<count where isKept(entry) {
            kept.append(entry: entry, of: self, age: 0)
        }
        return kept
    }

    /// The first entry at or after `position` whose rowid is at least `rowid` (galloping, so
    /// that a short list walks a long one in few steps).
    @inline(__always)
    func position(atLeast rowid: Int64, from position: Int) -> Int {
        guard position < rowids.count, rowids[position] < rowid else { return position }
        var low = position
        var step = 1
        while low + step < rowids.count && rowids[low + step] < rowid {
            low += step
            step <<= 1
        }
        var high = min(low + step, rowids.count)
        low += 1
        while low < high {
            let middle = (low + high) / 2
            if rowids[middle] < rowid { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
