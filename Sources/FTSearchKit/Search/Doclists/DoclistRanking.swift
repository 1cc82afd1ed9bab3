import FTSearchSQLite

/// Ranks a ``MatchPlan``'s matches straight from the FTS5 index's doclists, without FTS5's
/// cursor: for each phrase it finds its term in every segment (the `prefix=` index for a
/// prefix of one of its lengths, else the main index's term or range of terms), decodes the
/// doclists from `%_data` through a blob handle, keeps each rowid's newest entry, then walks
/// the rows where every token has a match-phrase hit and hands each row's hits to the same
/// ``FTS5RankCollector`` the auxiliary function fills, so the rows, tiers, scores and total
/// are the ones FTS5's cursor gives.
///
/// A phrase of several terms (a substring's trigrams, a word anchored at its start or end) is
/// matched from its terms' positions (see ``PhrasePositions``), as FTS5 matches it.
///
/// It serves plans on an index in the format it knows, and gives back nil (FTS5's cursor then
/// ranks) when anything is not so: an index with another `detail=`, `%_config` version or
/// structure record format, this connection in a write transaction (whose pending changes only
/// FTS5 sees), a prefix phrase of several terms, or any record that does not decode.
struct DoclistRanking {
    let database: Database
    let plan: MatchPlan

    /// Whether a one-word search's doclist is scored as it is decoded (see
    /// ``StreamedRowScorer``) whatever its segments look like. By default not when they look
    /// like single writes' (small beside big), whose rowids would come out of order only at
    /// the end, after nearly all the work; tests turn it on to reach the starting over.
    var streamsAnySegments = false

    /// The `%_config` version this reader decodes (FTS5_CURRENT_VERSION in SQLite 3.40).
    static let formatVersion = 4

    /// Which of the index's segments are read.
    enum Segments {
        case all
        /// The newer half of the segments, or the older (the rest): for two connections at
        /// once, each decoding its half (see ``collectInHalves(helper:collector:)``).
        case newer, older
        /// The segments `claims` gives this connection, one at a time, oldest first: for
        /// connections ranking a plan of one match phrase at once, each its share (see
        /// ``Collection/isDisjoint(from:)``).
        case shared(SegmentClaims)

        var isAll: Bool { if case .all = self { true } else { false } }
    }

    /// What a collection read: the collector filled, the structure record it read the
    /// segments from, and the lowest and highest rowid of every entry it decoded, delete
    /// markers included, in each of the segments (or groups of segments) it read.
    struct Collection {
        let collector: FTS5RankCollector
        let structure: [UInt8]
        let rowids: [ClosedRange<Int64>]

        /// Whether no rowid can have entries in both collections: then each ranked its rows
        /// exactly as reading all the segments would, and the two can be merged.
        func isDisjoint(from other: Collection) -> Bool {
            rowids.allSatisfy { mine in
                other.rowids.allSatisfy { DoclistRanking.areDisjoint(mine, $0) }
            }
        }
    }

    /// A reader of the plan's index, its column filter applied; the caller closes it.
    private func makeReader() -> FTS5SegmentReader {
        FTS5SegmentReader(
            database: database, index: plan.index, columnCount: plan.weights.count,
            matchedColumns: plan.matchedColumns)
    }

    /// Whether no rowid lies in both spans (nil: nothing decoded).
    static func areDisjoint(_ a: ClosedRange<Int64>?, _ b: ClosedRange<Int64>?) -> Bool {
        guard let a, let b else { return true }
        return a.upperBound < b.lowerBound || b.upperBound < a.lowerBound
    }

    /// The smallest span holding both (nil: nothing decoded).
    static func union(_ a: ClosedRange<Int64>?, _ b: ClosedRange<Int64>?) -> ClosedRange<Int64>? {
        guard let a, let b else { return a ?? b }
        return min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
    }

    /// Whether two connections would rank the plan faster in halves of the rowids than in
    /// halves of the segments: when the index has one segment, or small ones beside big ones
    /// (single-record writes put their rows, from all over the rowid range, in small segments,
    /// so the halves of the segments would not be disjoint). A bulk import's segments are of
    /// one size but its last.
    func splitsByRowid() throws -> Bool {
        let reader = makeReader()
        defer { reader.close() }
        guard
            let structure = try? FTS5Structure(
                structure: reader.record(10), averages: reader.record(1),
                columnCount: plan.weights.count)
        else { return true }
        return structure.segments.count < 2 || Self.mayOverlap(structure.segments)
    }

    /// Whether `segments` may hold rowids in common: small ones beside big ones, as single
    /// writes leave them. A bulk import's are of one size but its last, and disjoint.
    private static func mayOverlap(_ segments: some Swift.Collection<FTS5Segment>) -> Bool {
        let pages = segments.map { $0.lastPage - $0.firstPage + 1 }
        guard let smallest = pages.min(), let largest = pages.max() else { return false }
        return smallest * 8 < largest
    }

    /// Fills `collector` with the plan's matches in `segments`; nil when the doclists cannot
    /// serve it (or a half is asked of an index of fewer than two segments, or a share for a
    /// plan of several match phrases, or of segments that may hold a row twice). A share
    /// that gives up, or throws, gives up the other connection's too (see
    /// ``SegmentClaims/abandon``), which then need not rank the rest for nothing.
    /// With `rows`, only the matches of those rowids are handed to the collector (every
    /// segment is still read): for two connections at once, each ranking its half of the
    /// rowids, however the segments hold them.
    func collect(
        into collector: FTS5RankCollector, segments: Segments = .all,
        rows: ClosedRange<Int64>? = nil
    ) throws -> Collection? {
        guard case .shared(let claims) = segments else {
            return try collectOnce(into: collector, segments: segments, rows: rows)
        }
        do {
            let collection = try collectOnce(into: collector, segments: segments, rows: rows)
            if collection == nil { claims.abandon() }
            return collection
        } catch {
            claims.abandon()
            throw error
        }
    }

    private func collectOnce(
        into collector: FTS5RankCollector, segments: Segments, rows: ClosedRange<Int64>?
    ) throws -> Collection? {
        guard !database.isWriting else { return nil }
        // Several match phrases need the rows of every segment for their IDFs.
        guard segments.isAll || plan.matchPhraseCount == 1 else { return nil }
        // One read transaction, so that the options, the structure, every page and the row
        // sizes are of one version (and the locks are taken once).
        return try database.readingOneVersion {
            guard let options = try IndexOptions(of: plan.index, in: database),
                let keys = try phraseKeys(options)
            else { return nil }
            let rows = rows ?? Int64.min...Int64.max
            var collector = collector
            switch try stream(into: collector, segments: segments, rows: rows, keys: keys) {
            case .collected(let collection): return collection
            case .notStreamed: break
            case .outOfOrder:
                // The segments claimed are gone; the whole plan is ranked otherwise.
                if case .shared = segments { return nil }
                collector = collector.emptyCopy()
            }
            guard case .shared(let claims) = segments else {
                guard let decoded = try decode(segments, keys: keys) else { return nil }
                return rank(decoded, rows: rows, into: collector)
            }
            return try rankEach(claimedBy: claims, rows: rows, keys: keys, into: collector)
        }
    }

    /// Decodes and ranks, one at a time, the segments `claims` gives this connection, into
    /// `collector`; nil when the doclists cannot serve the plan.
    private func rankEach(
        claimedBy claims: SegmentClaims, rows: ClosedRange<Int64>, keys: [PhraseKeys],
        into collector: FTS5RankCollector
    ) throws -> Collection? {
        let reader = makeReader()
        defer { reader.close() }
        do {
            guard let (record, structure, read) = try segments(.shared(claims), reader: reader)
            else { return nil }
            var rowids: [ClosedRange<Int64>] = []
            for segment in Self.oldestFirst(read, claimedBy: claims) {
                // Each segment alone: no row of it may be in one ranked before.
                guard
                    let decoded = try decode(
                        segment...segment, of: record, structure: structure, keys: keys,
                        reader: reader),
                    Self.ascends(rowids, then: decoded.rowids),
                    let ranked = rank(decoded, rows: rows, into: collector)
                else { return nil }
                rowids += ranked.rowids
            }
            return Collection(collector: collector, structure: record, rowids: rowids)
        } catch is FTS5FormatError {
            return nil
        }
    }

    /// Whether every rowid of `next` (nil: none) lies above every one of `spans`, the spans of
    /// the segments read before it, oldest first: then no row has entries in two of them (a
    /// row rewritten later, or moved by a merge still under way, has entries in both).
    private static func ascends(_ spans: [ClosedRange<Int64>], then next: ClosedRange<Int64>?)
        -> Bool
    {
        guard let next, let last = spans.last else { return true }
        return last.upperBound < next.lowerBound
    }

    /// The segments of `read` (newest first, as the structure record lists them) that
    /// `claims` gives this connection, oldest first, each when it is asked for.
    private static func oldestFirst(
        _ read: ArraySlice<FTS5Segment>, claimedBy claims: SegmentClaims
    ) -> some Sequence<ArraySlice<FTS5Segment>.Index> {
        sequence(state: ()) { _ in
            claims.next(read.count).map { read.endIndex - 1 - $0 }
        }
    }

    /// What ``stream(into:segments:rows:keys:)`` did.
    private enum Streamed {
        /// The plan's matches, or nil when the doclists cannot serve it.
        case collected(Collection?)
        /// The plan is not one a ``StreamedRowScorer`` serves; the collector is untouched.
        case notStreamed
        /// The doclist's rowids did not ascend through its segments; the collector has seen
        /// some of its rows.
        case outOfOrder
    }

    /// For a plan of one match phrase of one term driving the walk, its signals each of one
    /// term, on segments that do not look like single writes': segment by segment, oldest
    /// first, the signals decoded, then the match phrase scored as it is decoded (see
    /// ``StreamedRowScorer``). Out of order when a segment holds a rowid at or below one of a
    /// segment before it.
    private func stream(
        into collector: FTS5RankCollector, segments: Segments, rows: ClosedRange<Int64>,
        keys: [PhraseKeys]
    ) throws -> Streamed {
        guard plan.tokenCount == 1, plan.matchPhraseCount == 1,
            case .one(let driver, isPrefix: false) = keys[0],
            keys.dropFirst().allSatisfy({ if case .one = $0 { true } else { false } })
        else { return .notStreamed }
        let reader = makeReader()
        defer {
            reader.close()
            collector.closeSizeReader()
        }
        var scorer: StreamedRowScorer?
        do {
            guard let (record, structure, read) = try self.segments(segments, reader: reader)
            else { return .collected(nil) }
            guard streamsAnySegments || !Self.mayOverlap(read) else { return .notStreamed }
            collector.start(
                rowCount: structure.rowCount, tokenCount: structure.tokenCount,
                matchPhraseRows: [])
            let streaming = StreamedRowScorer(
                collector: collector, signalCount: keys.count - 1,
                columnCount: plan.weights.count, rows: rows,
                interruptCheck: database.interruptCheck)
            scorer = streaming
            let oldestFirst: any Sequence<Int> =
                if case .shared(let claims) = segments {
                    Self.oldestFirst(read, claimedBy: claims)
                } else {
                    read.indices.reversed()
                }
            var rowids: [ClosedRange<Int64>] = []
            // Segment by segment, its signals decoded first: a row's signals are in the segment
            // of its driver's entry as long as no row has entries in two segments, which the
            // segments' spans, ascending, make sure of (a row rewritten later leaves delete
            // markers in a newer segment, and a merge under way moves the entries of some
            // terms, a signal's among them, into its output segment).
            for segment in oldestFirst {
                var span: ClosedRange<Int64>?
                var signals: [DoclistEntries] = []
                for key in keys.dropFirst() {
                    signals.append(
                        try entries(
                            of: key, in: read[segment...segment], reader: reader, span: &span,
                            wanted: nil))
                }
                streaming.startSegment(signals: signals)
                try reader.appendDoclist(of: driver, in: read[segment], to: streaming)
                let decoded = Self.union(span, streaming.decodedRowids)
                guard Self.ascends(rowids, then: decoded) else {
                    return segments.isAll ? .outOfOrder : .collected(nil)
                }
                rowids += decoded.map { [$0] } ?? []
            }
            return .collected(Collection(collector: collector, structure: record, rowids: rowids))
        } catch is FTS5FormatError {
            return scorer?.isOutOfOrder == true ? .outOfOrder : .collected(nil)
        }
    }

    /// The plan's matches ranked on two connections at once, this one's and `helper`'s, each
    /// decoding half of the segments and scoring its rows into a collector `collector` makes
    /// for its connection; the two collectors merged. For a plan of several match phrases (two
    /// tokens; fuzzy corrections), whose IDFs need the rows of every segment: both halves are
    /// decoded first, then scored with the IDFs of their rows together. The merged collector;
    /// nil when the doclists
    /// cannot serve the plan, the index has fewer than two segments, or the halves read other
    /// versions or hold rowids in common (after single writes; see ``splitsByRowid()``): the
    /// caller then ranks it otherwise.
    func collectInHalves(
        helper: RankingHelper, collector: @escaping (Database) -> FTS5RankCollector
    ) throws -> FTS5RankCollector? {
        guard !database.isWriting else { return nil }
        return try database.readingOneVersion {
            let plan = plan
            let (newer, older) = try helper.inHalves(database) {
                try decoded(.newer)
            } theirs: { database in
                try DoclistRanking(database: database, plan: plan).decoded(.older)
            }
            guard let newer, let older = older ?? nil, newer.structure == older.structure,
                newer.isDisjoint(from: older)
            else { return nil }
            // Each half holds its rows' entries whole, so each row's phrases are counted once.
            let rows = zip(newer.lists, older.lists).prefix(plan.matchPhraseCount).map {
                Int64($0.count + $1.count)
            }
            let all = Int64.min...Int64.max
            let (mine, theirs) = try helper.inHalves(database) {
                rank(newer, rows: all, matchPhraseRows: rows, into: collector(database))
            } theirs: { database in
                // Its rows' sizes must be of the version its entries were decoded from.
                try database.readingOneVersion {
                    let ranking = DoclistRanking(database: database, plan: plan)
                    guard try ranking.structureRecord() == older.structure else { return nil }
                    return ranking.rank(
                        older, rows: all, matchPhraseRows: rows, into: collector(database))
                }
            }
            guard let mine, let theirs = theirs ?? nil else { return nil }
            mine.collector.absorb(theirs.collector)
            return mine.collector
        }
    }

    /// The index's structure record (`%_data` row 10), as ``Collection/structure`` holds it.
    private func structureRecord() throws -> [UInt8]? {
        let reader = makeReader()
        defer { reader.close() }
        return try? reader.record(10)
    }

    /// Each phrase's entries in some of the index's segments, resolved, with what ranking them
    /// needs of the structure record they were read by.
    struct Decoded {
        /// One per phrase, in the plan's order.
        let lists: [DoclistEntries]
        let structure: [UInt8]
        let rowCount: Int64
        let tokenCount: Int64
        /// The lowest and highest rowid of every entry decoded, delete markers included.
        let rowids: ClosedRange<Int64>?

        /// Whether no rowid can have entries in both: then each half holds its rows' entries
        /// whole (a newer entry cannot hide an older one that the other half read).
        func isDisjoint(from other: Decoded) -> Bool {
            DoclistRanking.areDisjoint(rowids, other.rowids)
        }
    }

    /// The plan's phrases decoded from `segments`, in one read transaction; nil when the
    /// doclists cannot serve the plan (or a half is asked of an index of one segment).
    private func decoded(_ segments: Segments) throws -> Decoded? {
        try database.readingOneVersion {
            guard let options = try IndexOptions(of: plan.index, in: database),
                let keys = try phraseKeys(options)
            else { return nil }
            return try decode(segments, keys: keys)
        }
    }

    private func decode(_ segments: Segments, keys: [PhraseKeys]) throws -> Decoded? {
        let reader = makeReader()
        defer { reader.close() }
        do {
            guard let (record, structure, read) = try self.segments(segments, reader: reader)
            else { return nil }
            return try decode(
                read.indices, of: record, structure: structure, keys: keys, reader: reader)
        } catch is FTS5FormatError {
            return nil
        }
    }

    /// The plan's phrases decoded from the segments at `positions` of those the structure
    /// record `record` (`structure`, decoded) lists.
    private func decode(
        _ positions: some RangeExpression<Int>, of record: [UInt8], structure: FTS5Structure,
        keys: [PhraseKeys], reader: FTS5SegmentReader
    ) throws -> Decoded? {
        let read = structure.segments[positions]
        do {
            var rowids: ClosedRange<Int64>?
            var lists = [DoclistEntries?](repeating: nil, count: plan.phrases.count)
            let columnCount = plan.weights.count
            /// The rows the match phrases of `token` hit (decoded already).
            func rows(of token: Int) -> [Int64] {
                Self.rowids(
                    of: plan.phrases.indices.filter {
                        plan.phrases[$0].isMatch && plan.phrases[$0].token == token
                    }.compactMap { lists[$0] }, columnCount: columnCount)
            }
            // Of several tokens, the one whose match phrases look smallest is decoded first;
            // the others' then count the hits of its rows only (see ``DoclistEntries``).
            let first = try smallestToken(keys, in: read, reader: reader)
            var firstRows: [Int64]?
            for index in decodingOrder(first: first) {
                let (phrase, key) = (plan.phrases[index], keys[index])
                var wanted: [Int64]?
                if case .sequence = key, !phrase.isMatch {
                    // A signal of several terms is read for the rows its token's match phrases
                    // hit (they come first); one of one term costs less read whole.
                    wanted = rows(of: phrase.token)
                } else if phrase.isMatch, let first, phrase.token != first {
                    if firstRows == nil { firstRows = rows(of: first) }
                    wanted = firstRows
                }
                lists[index] = try entries(
                    of: key, in: read, reader: reader, span: &rowids, wanted: wanted)
            }
            return Decoded(
                lists: lists.map { $0! }, structure: record, rowCount: structure.rowCount,
                tokenCount: structure.tokenCount, rowids: rowids)
        } catch is FTS5FormatError {
            return nil
        }
    }

    /// The phrases in the order they are decoded: the match phrases of token `first` (nil:
    /// of every token) before the others', and every match phrase before the signals.
    private func decodingOrder(first: Int?) -> [Int] {
        let phrases = plan.phrases
        return phrases.indices.sorted { a, b in
            let rank = { (phrase: MatchPlan.Phrase) in
                !phrase.isMatch ? 2 : phrase.token == first ? 0 : 1
            }
            return (rank(phrases[a]), a) < (rank(phrases[b]), b)
        }
    }

    /// Of a plan of several tokens whose every column is searched, the token whose match
    /// phrases span the fewest leaf pages of the largest segment (a guess of their rows, from
    /// `%_idx` alone); nil for a plan of one token, or a column filter (whose rows' hits must
    /// all be decoded to know which match), or phrases of several terms.
    private func smallestToken(
        _ keys: [PhraseKeys], in segments: ArraySlice<FTS5Segment>, reader: FTS5SegmentReader
    ) throws -> Int? {
        guard plan.tokenCount > 1, plan.matchedColumns == nil,
            let largest = segments.max(by: {
                $0.lastPage - $0.firstPage < $1.lastPage - $1.firstPage
            })
        else { return nil }
        var pages = [Int](repeating: 0, count: plan.tokenCount)
        for (phrase, key) in zip(plan.phrases, keys) where phrase.isMatch {
            guard case .one(let key, let isPrefix) = key else { return nil }
            pages[phrase.token] += try reader.pageSpan(of: key, isPrefix: isPrefix, in: largest)
        }
        return pages.indices.min { pages[$0] < pages[$1] }
    }

    /// The structure record, what it says, and its segments that `segments` names; nil when
    /// a half is asked of an index of fewer than two segments.
    private func segments(_ segments: Segments, reader: FTS5SegmentReader) throws(FTS5FormatError)
        -> (record: [UInt8], structure: FTS5Structure, read: ArraySlice<FTS5Segment>)?
    {
        let record = try reader.record(10)
        let structure = try FTS5Structure(
            structure: record, averages: reader.record(1), columnCount: plan.weights.count)
        let all = structure.segments
        let half = all.count / 2
        switch segments {
        case .all, .shared: return (record, structure, all[...])
        case .newer: return half > 0 ? (record, structure, all.prefix(half)) : nil
        case .older: return half > 0 ? (record, structure, all.dropFirst(half)) : nil
        }
    }

    /// Scores every row of `decoded` in `rows` into `collector`; nil when a row's size cannot
    /// be read, or the search was cancelled.
    /// The IDF of each match phrase comes from `matchPhraseRows` (the rows each hits), by
    /// default those of `decoded`.
    private func rank(
        _ decoded: Decoded, rows: ClosedRange<Int64>, matchPhraseRows: [Int64]? = nil,
        into collector: FTS5RankCollector
    ) -> Collection? {
        defer { collector.closeSizeReader() }
        collector.start(
            rowCount: decoded.rowCount, tokenCount: decoded.tokenCount,
            matchPhraseRows: plan.matchPhraseCount > 1
                ? matchPhraseRows
                    ?? decoded.lists.prefix(plan.matchPhraseCount).map { Int64($0.count) } : [])
        guard walk(decoded.lists, rows: rows, into: collector) else { return nil }
        return Collection(
            collector: collector, structure: decoded.structure,
            rowids: decoded.rowids.map { [$0] } ?? [])
    }

    /// How a phrase is found in the index: one term, by its key (its term after the byte of
    /// the index it is in), or the terms of a key's range; or several terms in a row.
    private enum PhraseKeys {
        case one(key: [UInt8], isPrefix: Bool)
        case sequence(keys: [[UInt8]])
    }

    /// Each phrase's keys in the index, its terms as its tokenizer makes them; nil for a
    /// prefix phrase of several terms.
    private func phraseKeys(_ options: IndexOptions) throws -> [PhraseKeys]? {
        let tokenizer = try FTS5Tokenizer.kept(named: options.tokenizer, on: database)
        var keys: [PhraseKeys] = []
        for phrase in plan.phrases {
            let tokens = tokenizer.tokens(in: phrase.term)
            guard !tokens.isEmpty else { return nil }
            if tokens.count > 1 {
                guard !phrase.isPrefix else { return nil }
                keys.append(
                    .sequence(keys: tokens.map { [UInt8(ascii: "0")] + Array($0.text.utf8) }))
                continue
            }
            let bytes = Array(tokens[0].text.utf8)
            // FTS5 counts a prefix's characters, not its bytes (fts5IndexCharlen).
            let characters = bytes.count { $0 & 0xC0 != 0x80 }
            let prefixIndex =
                phrase.isPrefix ? options.prefixLengths.firstIndex(of: characters) : nil
            if let prefixIndex {
                keys.append(
                    .one(key: [UInt8(ascii: "0") + UInt8(prefixIndex + 1)] + bytes, isPrefix: false)
                )
            } else {
                keys.append(.one(key: [UInt8(ascii: "0")] + bytes, isPrefix: phrase.isPrefix))
            }
        }
        return keys
    }

    /// A phrase's entries over `segments` (newest first): each term's newest entries, the
    /// terms united (or for a sequence, matched in a row); widens `span` to the rowids of every
    /// entry decoded. With `wanted`, the hits of those rows only are counted (see
    /// ``DoclistEntries``), and a sequence keeps those rows only.
    private func entries(
        of terms: PhraseKeys, in segments: ArraySlice<FTS5Segment>,
        reader: FTS5SegmentReader, span: inout ClosedRange<Int64>?, wanted: [Int64]?
    ) throws -> DoclistEntries {
        func widen(_ low: Int64, _ high: Int64) {
            span = span.map { min($0.lowerBound, low)...max($0.upperBound, high) } ?? low...high
        }
        func widen(_ list: DoclistEntries, _ range: Range<Int>) {
            guard let first = range.first, let last = range.last else { return }
            widen(list.rowids[first], list.rowids[last])
        }
        let columnCount = plan.weights.count
        let key: (key: [UInt8], isPrefix: Bool)
        switch terms {
        case .one(let one, let isPrefix): key = (one, isPrefix)
        case .sequence(let keys):
            // Each term after the first is read for the rows every term before it hits.
            var lists: [PhrasePositions] = []
            var rows = wanted
            for key in keys {
                var newestFirst: [PhrasePositions] = []
                for segment in segments {
                    let list = PhrasePositions(wanted: rows)
                    try reader.appendDoclist(of: key, in: segment, to: list)
                    if let decoded = list.decodedRowids {
                        widen(decoded.lowerBound, decoded.upperBound)
                    }
                    if list.count > 0 { newestFirst.append(list) }
                }
                let resolved = PhrasePositions.resolving(newestFirst: newestFirst)
                lists.append(resolved)
                rows = Array(UnsafeBufferPointer(start: resolved.rowids, count: resolved.count))
            }
            return PhrasePositions.phraseHits(
                of: lists, columnCount: columnCount, countedColumns: reader.countedColumns)
        }
        var byTerm: [[DoclistEntries]] = []
        if key.isPrefix {
            // Several terms: gather each term's lists from the segments that have it.
            var termIndex: [[UInt8]: Int] = [:]
            for segment in segments {
                for (term, list) in try reader.termDoclists(
                    startingWith: key.key, in: segment, wanted: wanted)
                {
                    widen(list, 0..<list.count)
                    let slot = termIndex[term] ?? byTerm.count
                    if slot == byTerm.count {
                        termIndex[term] = slot
                        byTerm.append([])
                    }
                    byTerm[slot].append(list)
                }
            }
        } else {
            // Oldest segment first, into one list: the segments of a bulk import then come in
            // rowid order, end to end, and need no merging.
            let shared = DoclistEntries(columnCount: columnCount, capacity: 1024, wanted: wanted)
            var parts: [Range<Int>] = []
            for segment in segments.reversed() {
                let start = shared.count
                try reader.appendDoclist(of: key.key, in: segment, to: shared)
                parts.append(start..<shared.count)
                widen(shared, parts[parts.count - 1])
            }
            if shared.isResolved { return shared }
            byTerm = [parts.reversed().map { shared.entries(in: $0) }]
        }
        return DoclistEntries.union(
            byTerm.map { DoclistEntries.resolving(newestFirst: $0, columnCount: columnCount) },
            columnCount: columnCount)
    }

    /// The rowids of `lists` (each resolved), ascending, each once.
    private static func rowids(of lists: [DoclistEntries], columnCount: Int) -> [Int64] {
        guard !lists.isEmpty else { return [] }
        let united = DoclistEntries.union(lists, columnCount: columnCount)
        return Array(UnsafeBufferPointer(start: united.rowids, count: united.count))
    }

    /// Hands the collector every row where each token has a match-phrase hit, with all its
    /// phrases' hits in (column, offset) order; false when a row's size cannot be read, or the
    /// connection's interrupt check says stop.
    private func walk(
        _ lists: [DoclistEntries], rows: ClosedRange<Int64>, into collector: FTS5RankCollector
    ) -> Bool {
        // Plain pointers and counts: the loop below runs once per matching row. The lists own
        // the memory, so they live until it ends.
        defer { withExtendedLifetime(lists) {} }
        let phraseCount = lists.count
        let table = UnsafeMutablePointer<Int>.allocate(capacity: 3 * phraseCount)
        let rowids = UnsafeMutablePointer<UnsafeMutablePointer<Int64>>.allocate(
            capacity: phraseCount)
        let hits = UnsafeMutablePointer<UnsafeMutablePointer<UInt32>>.allocate(
            capacity: phraseCount)
        defer {
            table.deallocate()
            rowids.deallocate()
            hits.deallocate()
        }
        let counts = table
        let positions = table + phraseCount
        // The match phrases grouped by token, and where each token's group starts.
        let matchPhrases = table + 2 * phraseCount
        var groupStarts: [Int] = []
        var next = 0
        for token in 0..<plan.tokenCount {
            groupStarts.append(next)
            for (phrase, role) in plan.phrases.enumerated()
            where role.isMatch && role.token == token {
                matchPhrases[next] = phrase
                next += 1
            }
        }
        groupStarts.append(next)
        for (phrase, list) in lists.enumerated() {
            counts[phrase] = list.count
            positions[phrase] = 0
            rowids[phrase] = list.rowids
            hits[phrase] = list.hits
        }
        let columnCount = plan.weights.count
        let tokenCount = plan.tokenCount
        // One token of one match phrase (prefix and exact matching): its entries are the rows.
        let drivesAlone = tokenCount == 1 && groupStarts[1] == 1
        var rowid = rows.lowerBound
        var driven =
            drivesAlone
            ? DoclistEntries.position(
                atLeast: rows.lowerBound, from: 0, in: rowids[matchPhrases[0]],
                count: counts[matchPhrases[0]]) : 0
        var rowsWalked = 0
        let interruptCheck = database.interruptCheck
        while true {
            // A cancelled search stops here too: FTS5's cursor, which ranks it then, stops at
            // its first step.
            rowsWalked &+= 1
            if rowsWalked & 4095 == 0, interruptCheck?.shouldInterrupt() == true { return false }
            if drivesAlone {
                guard driven < counts[matchPhrases[0]] else { return true }
                rowid = rowids[matchPhrases[0]][driven]
                driven += 1
            } else {
                // Leapfrog: the lowest rowid at or after `rowid` that every token hits.
                var agreed = 0
                var token = 0
                while agreed < tokenCount {
                    var lowest = Int64.max
                    var isHit = false
                    for group in groupStarts[token]..<groupStarts[token + 1] {
                        let phrase = matchPhrases[group]
                        let position = DoclistEntries.position(
                            atLeast: rowid, from: positions[phrase], in: rowids[phrase],
                            count: counts[phrase])
                        positions[phrase] = position
                        if position < counts[phrase] {
                            lowest = min(lowest, rowids[phrase][position])
                            isHit = true
                        }
                    }
                    guard isHit else { return true }
                    if lowest == rowid { agreed += 1 } else { (rowid, agreed) = (lowest, 1) }
                    token = (token + 1) % tokenCount
                }
            }
            guard rowid <= rows.upperBound else { return true }
            collector.beginRow()
            for phrase in 0..<phraseCount {
                let entry = DoclistEntries.position(
                    atLeast: rowid, from: positions[phrase], in: rowids[phrase],
                    count: counts[phrase])
                positions[phrase] = entry
                guard entry < counts[phrase], rowids[phrase][entry] == rowid else { continue }
                let start = entry * columnCount
                for column in 0..<columnCount {
                    collector.recordHits(
                        hits[phrase][start + column], ofPhrase: phrase, inColumn: column)
                }
            }
            // A row without a size is not FTS5's: let its cursor rank the plan.
            guard
                collector.endRow(rowid: rowid, readSize: Self.noSize)
                    == SQLiteResultCode.ok.rawValue
            else {
                return false
            }
            if !drivesAlone {
                guard rowid < .max else { return true }
                rowid += 1
            }
        }
    }

    /// The last resort for a row's size, which the reader does not have.
    static func noSize(_ size: inout Int32) -> Int32 { SQLiteResultCode.corrupt.rawValue }
}

/// The options an FTS5 index was created with, as far as reading its doclists depends on
/// them, from its `CREATE VIRTUAL TABLE` statement and its `%_config` table.
struct IndexOptions {
    let tokenizer: String
    /// The `prefix=` lengths, in the order of their indexes (key bytes `'1'`, `'2'`, ...).
    let prefixLengths: [Int]

    /// Nil when the index is not one the doclist reader decodes: options other than
    /// `tokenize=`, `prefix=` and external content (`detail=`, `columnsize=`,
    /// `contentless_delete=`...), or another `%_config` version. A statement's options are
    /// parsed once and kept with the connection, as its definition is (see
    /// ``FTSearchSQLite/Database/tableDefinition(named:)``).
    init?(of index: String, in database: Database) throws {
        guard
            let sql = try database.tableDefinition(named: index),
            let version = try database.cachedStatement(
                sql: "SELECT v FROM \"\(index)_config\" WHERE k = 'version'"
            ).firstRow([], { $0.int(at: 0) }), version == DoclistRanking.formatVersion
        else { return nil }
        let kept = database.kept(Kept.self) { Kept() }
        let options: IndexOptions?
        if let parsed = kept.byDefinition[sql] {
            options = parsed
        } else {
            options = Self(parsing: sql)
            kept.byDefinition[sql] = options
        }
        guard let options else { return nil }
        self = options
    }

    /// The options of the statement `sql`; nil for options the reader does not decode.
    private init?(parsing sql: String) {
        let lowered = sql.lowercased()
        guard
            !["detail", "columnsize", "contentless", "tokendata", "locale"].contains(where: {
                lowered.containsBytes(of: $0)
            }),
            let tokenizer = Self.quotedOption("tokenize", in: sql),
            !tokenizer.contains(" ")
        else { return nil }
        let prefixes = Self.quotedOption("prefix", in: sql) ?? ""
        let lengths = prefixes.split(separator: " ").compactMap { Int($0) }
        guard lengths.count == prefixes.split(separator: " ").count else { return nil }
        self.tokenizer = tokenizer
        prefixLengths = lengths
    }

    /// The options a connection parsed, by statement (nil: not decoded).
    private final class Kept {
        var byDefinition: [String: IndexOptions?] = [:]
    }

    /// The value of `name='value'` in `sql`.
    private static func quotedOption(_ name: String, in sql: String) -> String? {
        let opening = name + "='"
        guard let offset = sql.utf8Offset(of: opening) else { return nil }
        let value = sql.utf8.dropFirst(offset + opening.utf8.count)
        guard let end = value.firstIndex(of: UInt8(ascii: "'")) else { return nil }
        return String(decoding: value[..<end], as: UTF8.self)
    }
}
