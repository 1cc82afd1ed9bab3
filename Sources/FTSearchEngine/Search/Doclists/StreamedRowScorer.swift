import FTS5Segments
import FTSearchSQLite

/// Scores the rows of a plan whose one match phrase drives the walk (one token, prefix or
/// exact matching: `"a"*` with its signals) while that phrase's doclist is decoded, without
/// keeping its entries: each entry's hits are counted per column, and the row goes to the
/// collector's one-phrase verdict (``FTS5RankCollector/endRow(rowid:hits:tier:readSize:)``)
/// with the tier the signal phrases that hit it give (decoded before each segment's, see
/// ``DoclistRanking``), as the walk hands it over. A one-letter prefix's hundreds of thousands
/// of entries are then never written to memory and read back.
///
/// The token's other match phrases (its other spellings, corrections) are decoded before each
/// segment's too: a row one of them hits, and a row only they hit, is set aside with its hits
/// of every phrase, to be judged once every phrase's IDF is known (see
/// ``FTS5RankCollector/completeSetAside()``).
///
/// Only a doclist whose rowids ascend through every segment, read oldest first, can be scored
/// so: then no entry hides another (a bulk import's segments are so). The first rowid out of
/// that order stops the decoding with ``isOutOfOrder`` set, and the plan is ranked the
/// general way, with a collector that has seen nothing.
final class StreamedRowScorer: DoclistSink {
    private let collector: FTS5RankCollector
    /// The other phrases' entries (phrases 1, 2, ...) in the current segment, kept alive for
    /// `lists` and `matches`.
    // The state of one ranking, used by one thread at a time: `@exclusivity(unchecked)`,
    // so that no access in the per-row paths pays a runtime exclusivity check (the decoding
    // loop that calls them lives in FTS5Segments, where they cannot be hoisted out of it).
    @exclusivity(unchecked) private var others: [DoclistEntries] = []
    /// Each signal phrase's entries, in plain memory, and what a hit of it says.
    private let lists: UnsafeMutableBufferPointer<SignalList>
    /// Each other match phrase's entries, and which of them the walk met.
    private let matches: UnsafeMutableBufferPointer<SignalList>
    /// The plan's phrase of each of `lists`, then of each of `matches`.
    private let phraseOfList: [Int]
    /// A row's hits of every phrase, per column (see ``FTS5RankCollector/setAside(rowid:hits:)``).
    private let setAsideHits: UnsafeMutableBufferPointer<UInt32>

    private struct SignalList {
        let rowids: UnsafePointer<Int64>
        let hits: UnsafePointer<UInt32>
        let count: Int
        let columnCount: Int
        let kinds: FTS5RankCollector.Signals
        /// Where the last row asked for was found, or the entry after it.
        var position = 0
        /// For another match phrase, whether the walk met each entry's row.
        var met: UnsafeMutablePointer<Bool>? = nil

        /// Whether the phrase hits row `rowid`, no lower than the row asked for before.
        @inline(__always)
        mutating func hits(_ rowid: Int64) -> Bool {
            position = DoclistEntries.position(
                atLeast: rowid, from: position, in: rowids, count: count)
            return position < count && rowids[position] == rowid
                && DoclistEntries.hasHits(position, in: hits, columnCount: columnCount)
        }
    }
    private let columnCount: Int
    private let rows: ClosedRange<Int64>
    private let interruptCheck: InterruptCheck?
    /// The current entry's hits, per column.
    private let hits: UnsafeMutablePointer<UInt32>
    @exclusivity(unchecked) private var rowid = Int64.min
    @exclusivity(unchecked) private var rowsScored = 0
    @exclusivity(unchecked) private var lowestDecoded = Int64.max
    @exclusivity(unchecked) private var highestDecoded = Int64.min

    /// Whether an entry's rowid came at or below the one before it.
    @exclusivity(unchecked) private(set) var isOutOfOrder = false

    /// The lowest through the highest rowid decoded in the current segment, delete markers
    /// included; nil when none.
    var decodedRowids: ClosedRange<Int64>? {
        lowestDecoded <= highestDecoded ? lowestDecoded...highestDecoded : nil
    }

    /// A scorer for the collector's plan, whose first phrase drives the walk;
    /// ``startSegment(others:)`` before each segment's doclist.
    init(
        collector: FTS5RankCollector, columnCount: Int, rows: ClosedRange<Int64>,
        interruptCheck: InterruptCheck?
    ) {
        self.collector = collector
        let phrases = collector.plan.phrases
        let signals = phrases.indices.dropFirst().filter { !phrases[$0].isMatch }
        let matches = phrases.indices.dropFirst().filter { phrases[$0].isMatch }
        lists = .allocate(capacity: signals.count)
        self.matches = .allocate(capacity: matches.count)
        phraseOfList = signals + matches
        self.columnCount = columnCount
        self.rows = rows
        self.interruptCheck = interruptCheck
        hits = .allocate(capacity: columnCount)
        hits.initialize(repeating: 0, count: columnCount)
        setAsideHits = .allocate(capacity: phrases.count * columnCount)
    }

    deinit {
        forgetMet()
        lists.deallocate()
        matches.deallocate()
        hits.deallocate()
        setAsideHits.deallocate()
    }

    private func forgetMet() {
        guard !others.isEmpty else { return }
        for index in matches.indices { matches[index].met?.deallocate() }
    }

    /// Takes the other phrases' entries in the segment whose doclist comes next (one list per
    /// phrase, in the plan's order from its second), and starts its span of rowids decoded.
    func startSegment(others: [DoclistEntries]) {
        precondition(others.count == lists.count + matches.count)
        forgetMet()
        self.others = others
        let phrases = collector.plan.phrases
        var signalCount = 0
        var matchCount = 0
        for (index, entries) in others.enumerated() {
            let phrase = phrases[index + 1]
            var list = SignalList(
                rowids: entries.rowids, hits: entries.hits, count: entries.count,
                columnCount: columnCount,
                kinds: phrase.isMatch ? [] : FTS5RankCollector.signals(of: phrase))
            if phrase.isMatch {
                list.met = .allocate(capacity: max(entries.count, 1))
                list.met?.initialize(repeating: false, count: max(entries.count, 1))
                (matches.baseAddress! + matchCount).initialize(to: list)
                matchCount += 1
            } else {
                (lists.baseAddress! + signalCount).initialize(to: list)
                signalCount += 1
            }
        }
        lowestDecoded = .max
        highestDecoded = .min
    }

    func append(_ rowid: Int64) -> Int {
        if rowid <= self.rowid { isOutOfOrder = true }
        self.rowid = rowid
        lowestDecoded = min(lowestDecoded, rowid)
        highestDecoded = max(highestDecoded, rowid)
        return 0
    }

    /// Counts the entry's hits and scores its row, unless it lies outside the rows asked for
    /// or has no hits in the columns searched (a delete marker, or hits only elsewhere). When
    /// every column is searched, any position is a hit, and a row whose tier alone leaves it
    /// out (see ``FTS5RankCollector/endRowIfLeftOut(byTier:rowid:)``) is counted without decoding
    /// its positions: most rows of a one-letter prefix are. Throws to stop the decoding: out
    /// of order, a row without a size, or a cancelled search.
    func takePositions(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, entry: Int,
        columnCount: Int, countedColumns: UInt64
    ) throws(FTS5FormatError) {
        guard !isOutOfOrder else { throw FTS5FormatError(reason: "rowids out of segment order") }
        guard end > start, rows.contains(rowid) else { return }
        rowsScored &+= 1
        if rowsScored & 4095 == 0, interruptCheck?.shouldInterrupt() == true {
            throw FTS5FormatError(reason: "interrupted")
        }
        var signals: FTS5RankCollector.Signals = []
        for index in lists.indices where lists[index].hits(rowid) {
            signals.formUnion(lists[index].kinds)
        }
        if !matches.isEmpty, isHitByAnotherMatch(rowid) {
            try setAside(
                rowid, bytes: bytes, from: start, to: end, columnCount: columnCount,
                countedColumns: countedColumns)
            return
        }
        let tier = collector.onePhraseTier(signals)
        if DoclistEntries.searchesEveryColumn(countedColumns, of: columnCount),
            collector.endRowIfLeftOut(byTier: tier, rowid: rowid)
        {
            return
        }
        // `hits` is all zeros between entries: each count is zeroed as it is handed over (a
        // scorer that threw is not used again).
        var isHit = false
        try DoclistEntries.forEachColumn(
            in: bytes, from: start, to: end, columnCount: columnCount,
            countedColumns: countedColumns
        ) { column, count in
            hits[column] &+= count
            isHit = true
        }
        guard isHit else { return }
        // A row without a size is not FTS5's: let its cursor rank the plan.
        guard
            collector.endRow(
                rowid: rowid, hits: hits, tier: tier, readSize: DoclistRanking.noSize)
                == SQLiteResultCode.ok.rawValue
        else {
            throw FTS5FormatError(reason: "row size")
        }
    }

    // MARK: Rows set aside

    /// Whether another match phrase hits `rowid` (each that does notes it met the row).
    @inline(__always)
    private func isHitByAnotherMatch(_ rowid: Int64) -> Bool {
        var isHit = false
        for index in matches.indices where matches[index].hits(rowid) {
            matches[index].met?[matches[index].position] = true
            isHit = true
        }
        return isHit
    }

    /// Sets row `rowid` aside with its hits of every phrase: the driving phrase's from its
    /// position list `bytes[start..<end]` (none when `bytes` is nil), the others' from their
    /// entries in this segment (each list's position moved to the row, as the walk moves it).
    private func setAside(
        _ rowid: Int64, bytes: UnsafeBufferPointer<UInt8>?, from start: Int, to end: Int,
        columnCount: Int, countedColumns: UInt64
    ) throws(FTS5FormatError) {
        let hits = setAsideHits
        hits.update(repeating: 0)
        if let bytes {
            try DoclistEntries.forEachColumn(
                in: bytes, from: start, to: end, columnCount: columnCount,
                countedColumns: countedColumns
            ) { column, count in hits[column] &+= count }
        }
        func copyHits(of list: inout SignalList, phrase: Int) {
            guard list.hits(rowid) else { return }
            let from = list.hits + list.position * columnCount
            (hits.baseAddress! + phrase * columnCount).update(from: from, count: columnCount)
        }
        for index in lists.indices { copyHits(of: &lists[index], phrase: phraseOfList[index]) }
        for index in matches.indices {
            copyHits(of: &matches[index], phrase: phraseOfList[lists.count + index])
        }
        guard collector.setAside(rowid: rowid, hits: UnsafeBufferPointer(hits)) else {
            throw FTS5FormatError(reason: "row size")
        }
    }

    /// Ends the segment: sets aside the rows that only the other match phrases hit, which
    /// the walk did not meet.
    func endSegment() throws(FTS5FormatError) {
        var unmet: [Int64] = []
        for index in matches.indices {
            let list = matches[index]
            for entry in 0..<list.count
            where list.met?[entry] == false && rows.contains(list.rowids[entry])
                && DoclistEntries.hasHits(entry, in: list.hits, columnCount: columnCount)
            {
                unmet.append(list.rowids[entry])
            }
        }
        guard !unmet.isEmpty else { return }
        // In ascending order, each list walked again from its start.
        for index in lists.indices { lists[index].position = 0 }
        for index in matches.indices { matches[index].position = 0 }
        for rowid in Set(unmet).sorted() {
            try setAside(
                rowid, bytes: nil, from: 0, to: 0, columnCount: columnCount, countedColumns: 0)
        }
    }
}
