import FTSearchSQLite

/// Every record of a kind counted by the first two bytes of its sort code (see ``SortCodes``),
/// for listing everything in name order: a page's records are among the few whose codes begin
/// as the codes at its first and last positions do, and every other record comes before or
/// after them all. Two passes over the codes, no name read, find them.
struct SortCodeCensus {
    let kind: Kind
    private let codes: RecordCodes
    /// How many records' codes begin below each two bytes (the 65,536 of them, then one past
    /// the last: every record).
    private let below: [Int]

    /// Every record of `kind` in `database`, read from its sort codes.
    init(of kind: Kind, in database: Database) throws {
        let codes = try SortCodes(of: kind).everyRecord(in: database)
        var counts = [Int](repeating: 0, count: (1 << 16) + 1)
        counts.withUnsafeMutableBufferPointer { counts in
            codes.forEach { _, code in counts[Int(code >> 8) + 1] += 1 }
        }
        for prefix in counts.indices.dropFirst() { counts[prefix] += counts[prefix - 1] }
        (self.kind, self.codes, below) = (kind, codes, counts)
    }

    /// How many records there are.
    var total: Int { below[below.count - 1] }

    /// The ids at `positions` (within ``total``) of every record ordered by sort name and id,
    /// in `order`'s way; nil when a name cannot be read.
    func ids(at positions: Range<Int>, in order: SortKeyOrder) throws -> [Int64]? {
        guard !positions.isEmpty else { return [] }
        let (first, last) = (prefix(at: positions.lowerBound), prefix(at: positions.upperBound - 1))
        var candidates: [(rowid: Int64, code: UInt32)] = []
        codes.forEach { rowid, code in
            if (first...last).contains(Int(code >> 8)) { candidates.append((rowid, code)) }
        }
        let before = below[first]
        let table = SortCodeTable(candidates, of: kind)
        return order.rows(
            at: positions.lowerBound - before..<positions.upperBound - before, of: table
        )?.map(\.rowid)
    }

    /// The first two bytes of the code at `position` of the records ordered by code.
    private func prefix(at position: Int) -> Int {
        // The last prefix with fewer records below it than `position + 1`.
        var (low, high) = (0, below.count - 2)
        while low < high {
            let middle = (low + high + 1) / 2
            if below[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
