import FTS5Segments
import FTSearchSQLite

/// Collects the best-ranked rows of one FTS5 query without ranking every match
/// (https://sqlite.org/fts5.html#custom_auxiliary_functions).
///
/// The auxiliary function `ftsearch_rank(fts, ?)` is called with this collector bound as a
/// pointer, on the ranking query of a ``MatchPlan``: its match phrases first (any of a token's
/// match phrases matches that token), then its signal phrases. For each row where every token
/// has a match-phrase hit, it counts the row, takes its ``RankTier`` from the hits (the fields
/// matched in, whole-word matches, typos, infix matches, accent matches) and an upper bound of its bm25 score from the match phrases'
/// hits alone; only when that bound can reach the best `capacity` rows seen so far does it read
/// the row's size (from the index's ``RowSizes`` byte, or its docsize table) and compute the
/// exact score. The score is computed with the same expression,
/// in the same order, as FTS5's own `bm25()` over the match query (fts5_aux.c), so it is the
/// same double.
///
/// For a single match phrase the IDF is the same for every row, so it is applied at the end
/// (see ``finish()``), which spares the extra pass over the doclist that `bm25()` makes for it;
/// so it is for the first of a token's several match phrases, the rows the others hit set aside
/// until every IDF is known (see ``completeSetAside()``).
/// For a page in sort order (``RowFilter/order``) the candidates are the matches that can
/// reach it (see ``SortReach``), each scored, rather than the best by relevance.
final class FTS5RankCollector {

    /// The best (tier, value) of the matches that are not candidates (or no longer are): an
    /// upper bound of their values, `.infinity` for rows left out by their tier alone. Nil
    /// while every match is a candidate.
    // The state of one ranking, used by one thread at a time: `@exclusivity(unchecked)`,
    // so that no access in the per-row paths pays a runtime exclusivity check (the decoding
    // loop that calls them lives in FTS5Segments, where they cannot be hoisted out of it).
    @exclusivity(unchecked) var bestLeftOut: (tier: Int, value: Double)?

    let tokenCount: Int
    /// The number of match phrases (the first phrases of the query).
    let matchCount: Int
    /// The bm25 weight of each column.
    private let weights: UnsafeMutableBufferPointer<Double>
    /// The field level of each column (see ``MatchPlan/fieldLevels``), and the highest.
    private let columnLevels: UnsafeMutableBufferPointer<Int>
    private let topFieldLevel: Int
    let capacity: Int
    /// The rows where every token matched (the rows set aside counted once ``finish()`` has
    /// judged them).
    @exclusivity(unchecked) private(set) var total = 0
    @exclusivity(unchecked) var candidates: [Candidate] = []
    /// The IDF of each match phrase (all 1 for a single phrase until ``finish()``).
    let idf: UnsafeMutableBufferPointer<Double>
    /// Per phrase: its token, and what a hit says (see ``MatchPlan/Phrase``).
    private let phraseTokens: UnsafeMutableBufferPointer<Int>
    private let phraseTypos: UnsafeMutableBufferPointer<Int>
    private let phraseIsWhole: UnsafeMutableBufferPointer<Bool>
    private let phraseStartsWord: UnsafeMutableBufferPointer<Bool>
    private let phraseIsAccentExact: UnsafeMutableBufferPointer<Bool>
    /// See ``onePhraseTiers(matchSignals:typos:)``.
    private let onePhraseTiers: UnsafeMutableBufferPointer<Int>
    @exclusivity(unchecked) private var averageSize = 0.0
    @exclusivity(unchecked) private(set) var isStarted = false
    /// The `capacity`-th best key of the rows seen so far, or a lower bound of it: a row below
    /// it cannot be among the best. Nil until more than `capacity` rows were candidates.
    var threshold: Key? {
        didSet { leastTier = threshold?.tier ?? .min }
    }
    /// The threshold's tier, `Int.min` while there is none: a row of a lower tier is left out
    /// whatever its score (see ``endRowIfLeftOut(byTier:rowid:)``). Kept apart from the optional
    /// for the per-row check of streamed rows.
    @exclusivity(unchecked) var leastTier = Int.min
    /// The candidates of a tier above the threshold's. When they are `capacity`, the
    /// threshold rises to their tier at once (see ``admit(_:)``).
    @exclusivity(unchecked) var candidatesAboveLeastTier = 0
    /// When the candidates outgrow this count, ``raiseThreshold()`` selects the
    /// `capacity`-th best of them and drops those below it; doubled when that frees little
    /// (many rows tied with the page's last), so the work stays linear in the matches, and so
    /// does the memory: a page far beyond the matches costs none. It starts at twice the
    /// page's end plus 128, so that a threshold is found within the first few hundred rows
    /// and most of a long doclist's rows are left out by their bound, their sizes never read
    /// (with 4,096 more, a first page scored every one of its first four thousand matches).
    lazy var selectionLimit =
        capacity > (Int.max - 128) / 2 ? Int.max : 2 * capacity + 128
    // Per-row scratch space, as raw buffers: no exclusivity checks in the per-row loop.
    private let frequencies: UnsafeMutableBufferPointer<Double>
    private let hitCounts: UnsafeMutableBufferPointer<Int>
    private let tokenMatched: UnsafeMutableBufferPointer<Bool>
    private let tokenWhole: UnsafeMutableBufferPointer<Bool>
    private let tokenStartsWord: UnsafeMutableBufferPointer<Bool>
    private let tokenTypos: UnsafeMutableBufferPointer<Int>
    private let tokenAccentExact: UnsafeMutableBufferPointer<Bool>
    /// The level of the best field each token's match phrases hit in.
    private let tokenFieldLevel: UnsafeMutableBufferPointer<Int>
    @exclusivity(unchecked) private var failure: Int32 = SQLiteResultCode.ok.rawValue

    /// Where row sizes are read from directly: the connection and the docsize table.
    @exclusivity(unchecked) var sizeBlob: BlobReader?
    /// The index's one-byte row sizes (see ``RowSizes``), read before the docsize table.
    let rowSizeReader: RowBlockReader?
    /// The values of a one-word search's rows worked out so far.
    private let onePhraseValues = OnePhraseValues()

    /// The rows a filter admits (see ``RowFilter``); nil for every row.
    private let admitted: RowSet?
    /// For a page in sort order, how far into the matches it can reach; nil by relevance.
    let sortReach: SortReach?
    /// Every match counted, when the plan's filter asks for them.
    @exclusivity(unchecked) private var matched: RowSet?
    /// Whether a row's verdict looks at more than its tier and score: ``admitted``,
    /// ``sortReach`` or ``matched``.
    private let restrictsRows: Bool
    /// The matches the filter did not admit: counted for the IDF only, which is the index's.
    @exclusivity(unchecked) private(set) var excluded = 0
    /// Whether the rows of a plan of several match phrases are judged as its first phrase
    /// drives the walk, the IDFs known at the end (see ``completeSetAside()``).
    @exclusivity(unchecked) private(set) var setsAside = false
    /// The rows another match phrase hits, while ``setsAside``.
    @exclusivity(unchecked) var setAsideRows = SetAsideRows()

    /// What it was made with, for ``emptyCopy()``.
    private let arguments:
        (plan: MatchPlan, database: Database?, sizeTable: String?, rowSizes: RowSizes?)

    /// The plan whose matches it ranks.
    var plan: MatchPlan { arguments.plan }

    init(
        plan: MatchPlan, capacity: Int, database: Database? = nil, sizeTable: String? = nil,
        rowSizes: RowSizes? = nil
    ) {
        arguments = (plan, database, sizeTable, rowSizes)
        admitted = plan.rowFilter?.admitted
        sortReach = plan.rowFilter?.order.map(SortReach.init)
        if plan.rowFilter?.collectsMatches == true { matched = RowSet(capacity: 0) }
        restrictsRows = admitted != nil || sortReach != nil || matched != nil
        if let database, let sizeTable {
            sizeBlob = BlobReader(database: database, table: sizeTable, column: "sz")
        }
        rowSizeReader = database.flatMap { database in
            rowSizes.map { RowBlockReader(database: database, blocks: $0.blocks) }
        }
        precondition(plan.tokenCount > 0 && plan.matchPhraseCount > 0 && capacity > 0)
        tokenCount = plan.tokenCount
        matchCount = plan.matchPhraseCount
        weights = Self.buffer(plan.weights)
        columnLevels = Self.buffer(plan.fieldLevels)
        topFieldLevel = plan.topFieldLevel
        self.capacity = capacity
        phraseTokens = Self.buffer(plan.phrases.map(\.token))
        phraseTypos = Self.buffer(plan.phrases.map(\.typos))
        phraseIsWhole = Self.buffer(plan.phrases.map(\.isWhole))
        phraseStartsWord = Self.buffer(plan.phrases.map(\.startsWord))
        phraseIsAccentExact = Self.buffer(plan.phrases.map(\.isAccentExact))
        onePhraseTiers = Self.onePhraseTiers(
            matchSignals: Self.signals(of: plan.phrases[0]), typos: plan.phrases[0].typos,
            topFieldLevel: topFieldLevel)
        idf = Self.buffer(Array(repeating: 1.0, count: matchCount))
        frequencies = .allocate(capacity: matchCount)
        hitCounts = .allocate(capacity: matchCount)
        tokenMatched = .allocate(capacity: tokenCount)
        tokenWhole = .allocate(capacity: tokenCount)
        tokenStartsWord = .allocate(capacity: tokenCount)
        tokenTypos = .allocate(capacity: tokenCount)
        tokenAccentExact = .allocate(capacity: tokenCount)
        tokenFieldLevel = .allocate(capacity: tokenCount)
    }

    /// A collector made as this one was, that has collected nothing: for a ranking that must
    /// start over.
    func emptyCopy() -> FTS5RankCollector {
        FTS5RankCollector(
            plan: arguments.plan, capacity: capacity, database: arguments.database,
            sizeTable: arguments.sizeTable, rowSizes: arguments.rowSizes)
    }

    deinit {
        closeSizeReader()
        for buffer in [weights, idf] { buffer.deallocate() }
        for buffer in [phraseTokens, phraseTypos, columnLevels] { buffer.deallocate() }
        for buffer in [phraseIsWhole, phraseStartsWord, phraseIsAccentExact] { buffer.deallocate() }
        onePhraseTiers.deallocate()
        frequencies.deallocate()
        hitCounts.deallocate()
        tokenMatched.deallocate()
        tokenWhole.deallocate()
        tokenStartsWord.deallocate()
        tokenTypos.deallocate()
        tokenAccentExact.deallocate()
        tokenFieldLevel.deallocate()
    }

    /// The candidates left, in no particular order, with their final scores: every row that
    /// can be among the best `capacity` (ties with the last one included), and perhaps a few
    /// more that the last selection did not reach (at most twice `capacity` and a little, or a
    /// deep page's every match: the caller selects what it shows). Throws when the function
    /// failed.
    func finish() throws(SQLiteError) -> [Ranked] {
        guard failure == SQLiteResultCode.ok.rawValue else {
            throw SQLiteError(extendedResultCode: failure, message: "ftsearch_rank failed")
        }
        if setsAside {
            completeSetAside()
            setsAside = false
        }
        if let matched { plan.rowFilter?.take(matched) }
        // One phrase: score = 0.0 + idf * value, as bm25 computes it, with nHit = total.
        let scale: Double? =
            matchCount == 1 && isStarted
            ? Self.idf(rows: rowCount, hits: Int64(total + excluded)) : nil
        let kind = plan.kind
        return candidates.map { candidate in
            Ranked(
                kind: kind, rowid: candidate.rowid, tier: candidate.tier,
                score: scale.map { 0.0 + $0 * candidate.value } ?? candidate.value,
                value: candidate.value, frequency: candidate.frequency, size: candidate.size)
        }
    }

    @exclusivity(unchecked) private(set) var rowCount: Int64 = 0

    /// Takes in the rows `other` collected from another part of the same query's matches (a
    /// rowid range): the union of two collections holds every row that can be among the best
    /// of the whole, since each half's threshold is at most the whole's. They come in as this
    /// collection's own rows do, below the higher threshold left out and selected down past the
    /// selection limit, so that the union takes no more memory than either half.
    func absorb(_ other: FTS5RankCollector) {
        precondition(other.matchCount == matchCount && other.capacity == capacity)
        total += other.total
        if let theirs = other.matched { matched?.formUnion(theirs) }
        excluded += other.excluded
        // Either half's threshold bounds the whole's from below: keep the higher.
        if let theirs = other.threshold, threshold.map({ $0 < theirs }) ?? true {
            threshold = theirs
            let leastTier = leastTier
            candidatesAboveLeastTier = candidates.count { $0.tier > leastTier }
        }
        for candidate in other.candidates { admit(candidate) }
        if let theirs = other.bestLeftOut { leaveOut(tier: theirs.tier, value: theirs.value) }
        absorbSetAside(other)
        // A collector that ranked no row (its connection's share of the segments was none)
        // takes what the other started with, as if it had started.
        if !isStarted && other.isStarted {
            isStarted = true
            setsAside = other.setsAside
            rowCount = other.rowCount
            averageSize = other.averageSize
            _ = idf.update(fromContentsOf: other.idf)
        }
        if failure == SQLiteResultCode.ok.rawValue { failure = other.failure }
    }

    /// Starts the collection with the index's row count and token count (the averages bm25
    /// reads) and, when there are several match phrases, the number of rows each hits (their
    /// IDFs); for one, the IDF comes from the total in ``finish()``, and so do those of several
    /// when `matchPhraseRows` is empty: their first phrase then drives the walk, and the rows
    /// the others hit are set aside (see ``completeSetAside()``).
    func start(rowCount rows: Int64, tokenCount tokens: Int64, matchPhraseRows: [Int64]) {
        precondition(
            matchCount == 1 || matchPhraseRows.count == matchCount || matchPhraseRows.isEmpty)
        isStarted = true
        setsAside = matchCount > 1 && matchPhraseRows.isEmpty
        rowCount = rows
        averageSize = Double(tokens) / Double(rows)
        onePhraseValues.forgetAll()
        // Reserved, untouched until used: the candidates are selected down whenever they pass
        // the selection limit, and growing an array of a hundred thousand of them step by step
        // copied each one several times over, into fresh memory each time.
        candidates.reserveCapacity(min(selectionLimit, Int(clamping: rows) - 1) + 1)
        guard matchCount > 1 else { return }
        setIDFs(rows: matchPhraseRows)
    }

    // MARK: One row: its hits, then its verdict (the aux function and DoclistRanking both)

    /// Clears the hits of the previous row.
    @inline(__always)
    func beginRow() {
        for phrase in 0..<matchCount {
            frequencies[phrase] = 0
            hitCounts[phrase] = 0
        }
        for token in 0..<tokenCount {
            tokenMatched[token] = false
            tokenWhole[token] = false
            tokenStartsWord[token] = false
            tokenTypos[token] = Int.max
            tokenAccentExact[token] = false
            tokenFieldLevel[token] = 0
        }
    }

    /// Counts one hit of phrase `index` in `column` of the current row. Hits of a match phrase
    /// must come in (column, offset) order, as `xInst` lists them, so that its weighted
    /// frequency is the same sum in the same order.
    @inline(__always)
    func recordHit(ofPhrase index: Int, inColumn column: Int) {
        recordHits(1, ofPhrase: index, inColumn: column)
    }

    /// Counts `count` hits of phrase `index` in `column`, as that many
    /// ``recordHit(ofPhrase:inColumn:)`` calls do (the weight added once a hit, in the same
    /// order).
    @inline(__always)
    func recordHits(_ count: UInt32, ofPhrase index: Int, inColumn column: Int) {
        guard count > 0, index < phraseTokens.count else { return }
        let token = phraseTokens[index]
        if index < matchCount {
            let weight = column < weights.count ? weights[column] : 1.0
            var frequency = frequencies[index]
            for _ in 0..<count { frequency += weight }
            frequencies[index] = frequency
            hitCounts[index] += Int(count)
            tokenMatched[token] = true
            tokenTypos[token] = min(tokenTypos[token], phraseTypos[index])
            if column < columnLevels.count {
                tokenFieldLevel[token] = max(tokenFieldLevel[token], columnLevels[column])
            }
        }
        if phraseIsWhole[index] { tokenWhole[token] = true }
        if phraseStartsWord[index] { tokenStartsWord[token] = true }
        if phraseIsAccentExact[index] { tokenAccentExact[token] = true }
    }

    /// Ends the current row, `rowid`: counts it when every token matched, and keeps it when it
    /// can be among the best. Its size comes from the index's ``RowSizes`` byte, else its
    /// docsize row, else `readSize`, which sets it and returns an SQLite result code. Returns
    /// that code when it failed, else SQLiteResultCode.ok.rawValue.
    func endRow(rowid: Int64, readSize fallbackSize: (inout Int32) -> Int32) -> Int32 {
        endRow(rowid: rowid, knownSize: nil, readSize: fallbackSize)
    }

    /// Ends the current row, `rowid`, of size `size`, as ``endRow(rowid:readSize:)`` does.
    func endRow(rowid: Int64, size: Int32) {
        _ = endRow(rowid: rowid, knownSize: size) { _ in SQLiteResultCode.ok.rawValue }
    }

    @inline(__always)
    private func endRow(
        rowid: Int64, knownSize: Int32?, readSize fallbackSize: (inout Int32) -> Int32
    ) -> Int32 {
        let tokenCount = self.tokenCount
        let matchCount = self.matchCount
        let idf = self.idf
        let frequencies = self.frequencies
        let averageSize = self.averageSize
        var mostHits = 1
        for phrase in 0..<matchCount {
            mostHits = max(mostHits, hitCounts[phrase])
        }
        var fieldLevels = 0
        var wholeCount = 0
        var typos = 0
        var infix = 0
        var accents = 0
        for token in 0..<tokenCount {
            // A row that only a signal phrase brought in does not match.
            guard tokenMatched[token] else { return SQLiteResultCode.ok.rawValue }
            fieldLevels += tokenFieldLevel[token]
            if tokenWhole[token] { wholeCount += 1 }
            if !tokenStartsWord[token] && !tokenWhole[token] { infix += 1 }
            typos += tokenTypos[token]
            if tokenAccentExact[token] { accents += 1 }
        }
        let tier = RankTier(
            fieldLevels: fieldLevels, wholeTokenMatches: wholeCount, typos: typos,
            infixMatches: infix,
            accentMatches: accents
        ).rawValue
        return judge(
            rowid: rowid, tier: tier, leastSize: mostHits,
            frequency: matchCount == 1 ? frequencies[0] : 0, knownSize: knownSize,
            readSize: fallbackSize
        ) { size in
            Self.score(
                size: Double(size), frequencies: frequencies, idf: idf, averageSize: averageSize)
        }
    }

    /// For a plan of one token and one match phrase, the best tier of a row that the signal
    /// phrases `signals` hit: its tier if its match phrase hit it in a column of the top field
    /// level (``endRow(rowid:hits:tier:readSize:)`` lowers it for the columns hit).
    @inline(__always)
    func onePhraseTier(_ signals: Signals) -> Int {
        onePhraseTiers[signals.rawValue]
    }

    /// Ends the current row when its `tier` alone leaves it out, below the threshold's (in
    /// sort order: when it cannot reach the page): counts it and returns true, its hits never
    /// needed (a one-word search then reads none of its positions); true too for a row the
    /// filter does not admit, which is no match and is not counted. False when they must
    /// decide (see ``endRow(rowid:hits:tier:readSize:)``).
    @inline(__always)
    func endRowIfLeftOut(byTier tier: Int, rowid: Int64) -> Bool {
        // A plain ranking (most rows of most searches) needs only the tier compared.
        guard !restrictsRows else { return endRestrictedRowIfLeftOut(byTier: tier, rowid: rowid) }
        guard tier < leastTier else { return false }
        total += 1
        leaveOut(tier: tier, value: .infinity)
        return true
    }

    /// ``endRowIfLeftOut(byTier:rowid:)`` for a ranking with a filter, a sort order or the
    /// matches to note.
    @inline(never)
    private func endRestrictedRowIfLeftOut(byTier tier: Int, rowid: Int64) -> Bool {
        if let admitted, !admitted.contains(rowid) {
            excluded += 1
            return true
        }
        if let sortReach {
            guard !sortReach.reaches(rowid) else { return false }
        } else {
            guard tier < leastTier else { return false }
        }
        total += 1
        matched?.insert(rowid)
        leaveOut(tier: tier, value: .infinity)
        return true
    }

    /// Ends row `rowid` of a plan of one token and one match phrase, without ``beginRow()``
    /// and ``recordHits(_:ofPhrase:inColumn:)``: its match phrase's hit count in each column
    /// (which it zeroes), and ``onePhraseTier(_:)`` of the signal phrases that hit it, which
    /// the field level of the best column hit makes its tier. The same verdict as ``endRow(rowid:readSize:)`` after those calls, the same
    /// frequency summed in the same order, the same double; a first search's hundreds of
    /// thousands of rows skip the per-token bookkeeping of plans of several.
    func endRow(
        rowid: Int64, hits: UnsafeMutablePointer<UInt32>, tier: Int,
        readSize fallbackSize: (inout Int32) -> Int32
    ) -> Int32 {
        assert(tokenCount == 1 && (matchCount == 1 || setsAside))
        let weights = self.weights
        var frequency = 0.0
        var hitCount = 0
        var fieldLevel = 0
        for column in 0..<weights.count {
            let count = hits[column]
            guard count > 0 else { continue }
            hits[column] = 0
            fieldLevel = max(fieldLevel, columnLevels[column])
            let weight = weights[column]
            for _ in 0..<count { frequency += weight }
            hitCount &+= Int(count)
        }
        guard hitCount > 0 else { return SQLiteResultCode.ok.rawValue }
        // Small numbers: no overflow to check for, once a row.
        let tier = tier &- (topFieldLevel &- fieldLevel) &* RankTier.fieldLevelUnit
        let idf = self.idf[0]
        let averageSize = self.averageSize
        let values = onePhraseValues
        let slot = values.slot(of: frequency)
        return judge(
            rowid: rowid, tier: tier, leastSize: hitCount,
            frequency: frequency, readSize: fallbackSize
        ) { size in
            values.value(slot: slot, size: size) {
                0.0 + idf
                    * Self.saturation(
                        frequency: frequency, size: Double(size), averageSize: averageSize)
            }
        }
    }

    /// Counts a matching row of `tier` and keeps it when it can be among the best: it is left
    /// out when its tier is below the threshold's, or when `score` of the least size its hits
    /// allow (`leastSize`: each hit is a distinct token) is below it; else its size is read
    /// and `score` of it is its value. `frequency` is kept for ``RankingFrontier``.
    @inline(__always)
    private func judge(
        rowid: Int64, tier: Int, leastSize: Int, frequency: Double, knownSize: Int32? = nil,
        readSize fallbackSize: (inout Int32) -> Int32, score: (Int) -> Double
    ) -> Int32 {
        if endRowIfLeftOut(byTier: tier, rowid: rowid) { return SQLiteResultCode.ok.rawValue }
        total += 1
        if restrictsRows { matched?.insert(rowid) }
        // A smaller size gives a higher score. The margin keeps rows that could tie after the
        // IDF.
        if let least = threshold, tier == least.tier {
            let bound = score(leastSize)
            if bound < least.value * (1 - 1e-9) {
                leaveOut(tier: tier, value: bound)
                return SQLiteResultCode.ok.rawValue
            }
        }
        var size: Int32 = 0
        if let knownSize {
            size = knownSize
        } else if !readSize(ofRow: rowid, into: &size) {
            let code = fallbackSize(&size)
            guard code == SQLiteResultCode.ok.rawValue else { return code }
        }
        admit(
            Candidate(
                rowid: rowid, value: score(Int(size)), frequency: frequency, size: size,
                tier: tier))
        return SQLiteResultCode.ok.rawValue
    }

    func fail(_ code: Int32) {
        if failure == SQLiteResultCode.ok.rawValue { failure = code }
    }
}
