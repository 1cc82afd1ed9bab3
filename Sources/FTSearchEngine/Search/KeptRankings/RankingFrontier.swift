import FTS5Segments
import FTSearchSQLite

/// What a kept ranking needs to be brought up to date after writes (see
/// ``RankingMaintenance``) instead of ranked again: where the ``SearchChanges`` log stood, and
/// for each plan the statistics bm25 read, the class of each entry, and bounds on every match
/// the order does not hold.
///
/// It serves plans of one token with one match phrase of one term in a word index: prefix and
/// exact searches of one word, the short prefixes that cost most to rank. Their score is
/// `idf × value(frequency, size, average size)`, with one IDF for the whole plan, so after a
/// write only the rows written change class, and the others only change score through the
/// index's row and token counts and the plan's total, which are known exactly afterwards. The
/// matches the order does not hold are bounded by two things: the best (tier, value) among
/// them (``Part/bestLeftOut``), which a change of the average size can raise by no more than
/// the ratio of the averages (a bm25 term's elasticity in the average size is below 1); and
/// the rows tied with the last entry after it, all of one class (``Part/continuation``),
/// which keep following it in sort-key order.
struct RankingFrontier: Equatable, Sendable {
    /// What a row's score is computed from besides the index's statistics.
    struct RowClass: Equatable, Sendable {
        var tier: Int
        /// The weighted frequency of the match phrase.
        var frequency: Double
        /// The row's token count.
        var size: Int32

        init(tier: Int, frequency: Double, size: Int32) {
            self.tier = tier
            self.frequency = frequency
            self.size = size
        }

        init(_ row: FTS5RankCollector.Ranked) {
            self.init(tier: row.tier, frequency: row.frequency, size: row.size)
        }
    }

    /// One plan's part: its kind's index as ranked, and its matches the order does not hold.
    struct Part: Equatable, Sendable {
        var kind: Kind
        /// The index's row count and token count (its averages record), and the plan's total.
        var rowCount: Int64
        var tokenCount: Int64
        var total: Int
        /// The best tier, and (a bound of) the best value in it, of the matches neither in the
        /// order nor in ``continuation``; the value is infinite when only the tier is known.
        var bestLeftOut: Bound?
        /// The class of the matches tied with the order's last entry that come after it.
        var continuation: RowClass?

        struct Bound: Equatable, Sendable {
            var tier: Int
            var value: Double
        }

        /// The part of a plan on `index` with `total` matches, as the index is now; nil when
        /// its averages record cannot be read (an empty index).
        init?(kind: Kind, index: String, total: Int, in database: Database) {
            guard
                let averages = FTS5Averages(
                    of: index, columnCount: kind.searchableFields.count, in: database)
            else { return nil }
            self.init(
                kind: kind, rowCount: averages.rowCount, tokenCount: averages.tokenCount,
                total: total)
        }

        init(
            kind: Kind, rowCount: Int64, tokenCount: Int64, total: Int, bestLeftOut: Bound? = nil,
            continuation: RowClass? = nil
        ) {
            self.kind = kind
            self.rowCount = rowCount
            self.tokenCount = tokenCount
            self.total = total
            self.bestLeftOut = bestLeftOut
            self.continuation = continuation
        }

        /// Widens ``bestLeftOut`` to a match of `tier` and `value` (or a bound of it).
        mutating func noteLeftOut(tier: Int, value: Double) {
            if let best = bestLeftOut, (best.tier, best.value) >= (tier, value) { return }
            bestLeftOut = Bound(tier: tier, value: value)
        }
    }

    /// The last ``SearchChanges`` entry the ranking includes.
    var changeSequence: Int64
    /// One per plan, in the order of the plans.
    var parts: [Part]
    /// The class of each entry of the order, in its order.
    var entryClasses: [RowClass]
    /// The sort key of the order's last entry, which the ``Part/continuation`` rows follow.
    var lastSortKey: [UInt8]

    /// Whether a frontier can serve `plan` (see the type's description).
    static func serves(_ plan: MatchPlan) -> Bool {
        plan.tokenCount == 1 && plan.matchPhraseCount == 1 && plan.index == plan.kind.indexName
            && plan.rowFilter == nil
    }

    // MARK: Encoding

    private static let version: UInt8 = 1

    /// The frontier as ``ResultCache`` stores it.
    var encoded: [UInt8] {
        var bytes = [Self.version]
        func append(_ value: UInt64, _ count: Int) {
            LittleEndian.append(value, byteCount: count, to: &bytes)
        }
        func append(_ rowClass: RowClass) {
            append(UInt64(UInt32(truncatingIfNeeded: rowClass.tier)), 4)
            append(rowClass.frequency.bitPattern, 8)
            append(UInt64(UInt32(bitPattern: rowClass.size)), 4)
        }
        append(UInt64(bitPattern: changeSequence), 8)
        append(UInt64(lastSortKey.count), 4)
        bytes += lastSortKey
        append(UInt64(entryClasses.count), 4)
        entryClasses.forEach(append)
        append(UInt64(parts.count), 1)
        for part in parts {
            append(UInt64(Kind.allCases.firstIndex(of: part.kind)!), 1)
            append(UInt64(bitPattern: part.rowCount), 8)
            append(UInt64(bitPattern: part.tokenCount), 8)
            append(UInt64(part.total), 8)
            append(part.bestLeftOut == nil ? 0 : 1, 1)
            if let best = part.bestLeftOut {
                append(UInt64(UInt32(truncatingIfNeeded: best.tier)), 4)
                append(best.value.bitPattern, 8)
            }
            append(part.continuation == nil ? 0 : 1, 1)
            part.continuation.map(append)
        }
        return bytes
    }

    /// The frontier from its stored form; nil when the bytes are not one.
    init?(encoded bytes: [UInt8]) {
        var offset = 0
        func take(_ count: Int) -> UInt64? {
            guard count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return LittleEndian.value(in: bytes, at: offset, byteCount: count)
        }
        func takeClass() -> RowClass? {
            guard let tier = take(4), let frequency = take(8), let size = take(4) else {
                return nil
            }
            return RowClass(
                tier: Int(Int32(truncatingIfNeeded: tier)),
                frequency: Double(bitPattern: frequency),
                size: Int32(truncatingIfNeeded: size))
        }
        guard take(1) == UInt64(Self.version), let sequence = take(8), let keyCount = take(4),
            keyCount <= bytes.count - offset
        else { return nil }
        changeSequence = Int64(bitPattern: sequence)
        lastSortKey = Array(bytes[offset..<offset + Int(keyCount)])
        offset += Int(keyCount)
        guard let classCount = take(4), classCount <= bytes.count else { return nil }
        entryClasses = []
        for _ in 0..<classCount {
            guard let rowClass = takeClass() else { return nil }
            entryClasses.append(rowClass)
        }
        guard let partCount = take(1) else { return nil }
        parts = []
        for _ in 0..<partCount {
            guard let kindIndex = take(1), Int(kindIndex) < Kind.allCases.count,
                let rows = take(8), let tokens = take(8), let total = take(8),
                let hasBest = take(1)
            else { return nil }
            var part = Part(
                kind: Kind.allCases[Int(kindIndex)], rowCount: Int64(bitPattern: rows),
                tokenCount: Int64(bitPattern: tokens), total: Int(truncatingIfNeeded: total))
            if hasBest == 1 {
                guard let tier = take(4), let value = take(8) else { return nil }
                part.bestLeftOut = Part.Bound(
                    tier: Int(Int32(truncatingIfNeeded: tier)), value: Double(bitPattern: value))
            }
            guard let hasContinuation = take(1) else { return nil }
            if hasContinuation == 1 {
                guard let rowClass = takeClass() else { return nil }
                part.continuation = rowClass
            }
            parts.append(part)
        }
        guard offset == bytes.count else { return nil }
    }

    init(changeSequence: Int64, parts: [Part], entryClasses: [RowClass], lastSortKey: [UInt8]) {
        self.changeSequence = changeSequence
        self.parts = parts
        self.entryClasses = entryClasses
        self.lastSortKey = lastSortKey
    }
}
