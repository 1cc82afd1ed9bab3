/// How far into a kind's matches a sorted page can reach: each row's *key*, the rank of its
/// first sort value (its lowest, or highest when descending; rows without one last), and the
/// greatest key the page's last row can have among the matches seen so far. A match whose key
/// is above it has at least as many matches strictly before it as the page's end, so it can be
/// neither on the page nor tied with a row on it (see ``SortedPage``).
///
/// The rows are handed in one at a time, in any order: by a ranking walk of the text's
/// doclists (``FTS5RankCollector`` in sort order, which then scores only the rows that reach)
/// or, for an empty text, over the matches known. The bound only ever comes down, so a row
/// that reached when it came in may stop reaching later, never the reverse.
final class SortReach {
    /// What a walk of one kind's matches is ordered by: the kind's column of the first sort
    /// field (nil when no record has the field: every row then ties), its direction, and the
    /// end of the page.
    struct Order: Sendable {
        var column: FieldColumn?
        var descending: Bool
        /// How many rows in sort order the page ends after (`Int.max`: every match).
        var end: Int
    }

    private let starts: [Int32]
    private let codes: [Int32]
    /// Each code's key: its term's rank, reversed when descending.
    private let keys: [Int32]
    /// The key of a row without a value: after every value's.
    private let missing: Int32
    private let end: Int
    /// The least `end` keys recorded, greatest first (a binary max-heap).
    private var least: [Int32] = []
    /// The greatest key a row can have and still reach the page; the key of rows without a
    /// value (every row reaches) until `end` rows were recorded.
    private(set) var bound: Int32

    init(_ order: Order) {
        end = max(order.end, 1)
        guard let column = order.column else {
            (starts, codes, keys, missing, bound) = ([], [], [], 0, 0)
            return
        }
        starts = column.starts
        codes = column.codes
        let last = Int32(column.terms.count - 1)
        keys = order.descending ? column.ranks.map { last - $0 } : column.ranks
        missing = Int32(column.terms.count)
        bound = missing
    }

    /// The key of row `rowid`.
    @inline(__always)
    func key(of rowid: Int64) -> Int32 {
        let row = Int(truncatingIfNeeded: rowid)
        guard row >= 0, row + 1 < starts.count else { return missing }
        var key = missing
        for code in Int(starts[row])..<Int(starts[row + 1]) {
            key = min(key, keys[Int(codes[code])])
        }
        return key
    }

    /// Whether row `rowid` can reach the page, by the rows recorded so far.
    @inline(__always)
    func reaches(_ rowid: Int64) -> Bool { key(of: rowid) <= bound }

    /// Notes a match of key `key` that reaches the page, bringing the bound down once `end`
    /// of them are noted.
    func record(_ key: Int32) {
        guard key < bound || least.count < end else { return }
        if least.count < end {
            least.append(key)
            var child = least.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard least[parent] < least[child] else { break }
                least.swapAt(parent, child)
                child = parent
            }
            if least.count == end { bound = least[0] }
            return
        }
        least[0] = key
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < least.count else { break }
            let right = left + 1
            let larger = right < least.count && least[right] > least[left] ? right : left
            guard least[larger] > least[parent] else { break }
            least.swapAt(parent, larger)
            parent = larger
        }
        bound = least[0]
    }

    /// The rows of `rows` that reach the page once every one of them is recorded, in rowid
    /// order.
    func reaching(_ rows: RowSet) -> [Int64] {
        var reached: [Int64] = []
        rows.forEach { rowid in
            let key = key(of: rowid)
            guard key <= bound else { return }
            record(key)
            reached.append(rowid)
        }
        reached.removeAll { key(of: $0) > bound }
        return reached
    }
}
