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
/// Only a doclist whose rowids ascend through every segment, read oldest first, can be scored
/// so: then no entry hides another (a bulk import's segments are so). The first rowid out of
/// that order stops the decoding with ``isOutOfOrder`` set, and the plan is ranked the
/// general way, with a collector that has seen nothing.
final class StreamedRowScorer: DoclistSink {
    private let collector: FTS5RankCollector
    /// The signal phrases' entries (phrases 1, 2, ...) in the current segment, kept alive for
    /// `lists`.
    // The state of one ranking, used by one thread at a time: `@exclusivity(unchecked)`,
    // so that no access in the per-row paths pays a runtime exclusivity check (the decoding
    // loop that calls them lives in FTS5Segments, where they cannot be hoisted out of it).
    @exclusivity(unchecked) private var signals: [DoclistEntries] = []
    /// Each signal phrase's entries, in plain memory, and what a hit of it says.
    private let lists: UnsafeMutableBufferPointer<SignalList>

    private struct SignalList {
        let rowids: UnsafePointer<Int64>
        let hits: UnsafePointer<UInt32>
        let count: Int
        let columnCount: Int
        let kinds: FTS5RankCollector.Signals
        /// Where the last row asked for was found, or the entry after it.
        var position = 0

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

    /// A scorer for a plan of `signalCount` signal phrases; ``startSegment(signals:)`` before
    /// each segment's doclist.
    init(
        collector: FTS5RankCollector, signalCount: Int, columnCount: Int,
        rows: ClosedRange<Int64>, interruptCheck: InterruptCheck?
    ) {
        self.collector = collector
        lists = .allocate(capacity: signalCount)
        self.columnCount = columnCount
        self.rows = rows
        self.interruptCheck = interruptCheck
        hits = .allocate(capacity: columnCount)
        hits.initialize(repeating: 0, count: columnCount)
    }

    deinit {
        lists.deallocate()
        hits.deallocate()
    }

    /// Takes the signal phrases' entries in the segment whose doclist comes next (one list
    /// per signal phrase, in the plan's order), and starts its span of rowids decoded.
    func startSegment(signals: [DoclistEntries]) {
        precondition(signals.count == lists.count)
        self.signals = signals
        for (index, entries) in signals.enumerated() {
            (lists.baseAddress! + index).initialize(
                to: SignalList(
                    rowids: entries.rowids, hits: entries.hits, count: entries.count,
                    columnCount: columnCount,
                    kinds: FTS5RankCollector.signals(of: collector.plan.phrases[index + 1])))
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
}
