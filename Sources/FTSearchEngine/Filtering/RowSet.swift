import Synchronization

/// A set of rowids of one kind, as a bitmap: what a filter keeps and what a search matched.
package struct RowSet: Sendable, Equatable {
    /// Bit `rowid % 64` of word `rowid / 64`.
    private(set) var words: [UInt64]

    /// An empty set with room for rowids below `capacity`.
    package init(capacity: Int) {
        words = Array(repeating: 0, count: (max(capacity, 0) + 63) / 64)
    }

    /// The set whose bits are `words` (as ``words`` gives them).
    init(words: [UInt64]) {
        self.words = words
    }

    /// The rowids below which the set can hold any.
    var capacity: Int { words.count * 64 }

    /// Whether `rowid` is in the set.
    @inline(__always)
    func contains(_ rowid: Int64) -> Bool {
        guard rowid >= 0, rowid < Int64(capacity) else { return false }
        return words[Int(rowid >> 6)] & (1 << UInt64(rowid & 63)) != 0
    }

    /// Adds `rowid`, growing the set when it is beyond the capacity.
    @inline(__always)
    mutating func insert(_ rowid: Int64) {
        guard rowid >= 0 else { return }
        let word = Int(rowid >> 6)
        if word >= words.count {
            // Grown in place, as an array grows (no array of zeros made for each new word).
            words.append(contentsOf: repeatElement(0, count: word + 1 - words.count))
        }
        words[word] |= 1 << UInt64(rowid & 63)
    }

    /// The number of rowids in the set.
    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Whether the set holds no rowid.
    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// The rowids in both sets.
    func intersection(_ other: RowSet) -> RowSet {
        var result = RowSet(capacity: min(capacity, other.capacity))
        for index in result.words.indices {
            result.words[index] = words[index] & other.words[index]
        }
        return result
    }

    /// The rowids in either set.
    func union(_ other: RowSet) -> RowSet {
        var result = self
        result.formUnion(other)
        return result
    }

    /// Adds the rowids of `other`.
    mutating func formUnion(_ other: RowSet) {
        if other.words.count > words.count {
            words += Array(repeating: 0, count: other.words.count - words.count)
        }
        for index in other.words.indices { words[index] |= other.words[index] }
    }

    /// The rowids of this set that are not in `other`.
    func subtracting(_ other: RowSet) -> RowSet {
        var result = self
        for index in result.words.indices where index < other.words.count {
            result.words[index] &= ~other.words[index]
        }
        return result
    }

    /// Calls `body` with each rowid in ascending order.
    func forEach(_ body: (Int64) throws -> Void) rethrows {
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                let bit = bits.trailingZeroBitCount
                try body(Int64(index * 64 + bit))
                bits &= bits - 1
            }
        }
    }

    /// The rowids in ascending order.
    var rowids: [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(count)
        forEach { result.append($0) }
        return result
    }
}

/// What a ranking of a ``MatchPlan`` is restricted to and what it reports: the rows a filter
/// admits (nil for all), and, when asked, every row that matched (for facets). Shared by the
/// collectors of one plan, which may run on two connections at once: each collects its
/// matches apart and hands them over here when it finishes.
final class RowFilter: Sendable {
    /// The rows a match must be among; nil for every row.
    let admitted: RowSet?
    /// Whether the collectors note every match.
    let collectsMatches: Bool
    /// For a page ordered by sort fields, what the collectors keep instead of the best by
    /// relevance: every match that can reach the page in sort order (see ``SortReach``), each
    /// scored; nil for a ranking by relevance.
    let order: SortReach.Order?
    private let collected = Mutex(RowSet(capacity: 0))

    init(admitted: RowSet?, collectsMatches: Bool, order: SortReach.Order? = nil) {
        self.admitted = admitted
        self.collectsMatches = collectsMatches
        self.order = order
    }

    /// Adds the matches one collector noted.
    func take(_ matches: RowSet) {
        collected.withLock { $0.formUnion(matches) }
    }

    /// Every match noted so far.
    var matches: RowSet { collected.withLock { $0 } }
}
