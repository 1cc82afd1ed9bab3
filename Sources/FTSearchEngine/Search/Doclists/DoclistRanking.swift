import FTS5Segments
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
    static let knownFormatVersion = 4

    /// The `%_config` version an index must have to be read here; an index of another
    /// version is not served (the cursor ranks it). Tests give another to reach that path.
    var formatVersion = knownFormatVersion

    /// Which of the index's segments are read.
    enum Segments {
        case all
        /// The newer half of the segments, or the older (the rest): for two connections at
        /// once, each decoding its half (see ``collectInHalves(helper:collector:)``).
        case newer, older
        /// The segments `claims` gives this connection, one at a time, oldest first: for
        /// connections ranking a plan of one match phrase at once, each its share (see
        /// ``MatchCollection/isDisjoint(from:)``).
        case shared(SegmentClaims)

        var isAll: Bool { if case .all = self { true } else { false } }
    }

    /// A reader of the plan's index, its column filter applied; the caller closes it.
    func makeReader() -> FTS5SegmentReader {
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
    static func mayOverlap(_ segments: some Swift.Collection<FTS5Segment>) -> Bool {
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
    ) throws -> MatchCollection? {
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

    func collectOnce(
        into collector: FTS5RankCollector, segments: Segments, rows: ClosedRange<Int64>?
    ) throws -> MatchCollection? {
        guard !database.isWriting else { return nil }
        // One read transaction, so that the options, the structure, every page and the row
        // sizes are of one version (and the locks are taken once).
        return try database.readingOneVersion {
            guard let keys = try phraseKeys() else { return nil }
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
            // Several match phrases need the rows of every segment for their IDFs.
            guard segments.isAll || plan.matchPhraseCount == 1 else { return nil }
            guard case .shared(let claims) = segments else {
                guard let decoded = try decode(segments, keys: keys) else { return nil }
                return rank(decoded, rows: rows, into: collector)
            }
            return try rankEach(claimedBy: claims, rows: rows, keys: keys, into: collector)
        }
    }

    /// Decodes and ranks, one at a time, the segments `claims` gives this connection, into
    /// `collector`; nil when the doclists cannot serve the plan.
    func rankEach(
        claimedBy claims: SegmentClaims, rows: ClosedRange<Int64>, keys: [PhraseKeys],
        into collector: FTS5RankCollector
    ) throws -> MatchCollection? {
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
            return MatchCollection(collector: collector, structure: record, rowids: rowids)
        } catch is FTS5FormatError {
            return nil
        }
    }

    /// Whether every rowid of `next` (nil: none) lies above every one of `spans`, the spans of
    /// the segments read before it, oldest first: then no row has entries in two of them (a
    /// row rewritten later, or moved by a merge still under way, has entries in both).
    static func ascends(_ spans: [ClosedRange<Int64>], then next: ClosedRange<Int64>?)
        -> Bool
    {
        guard let next, let last = spans.last else { return true }
        return last.upperBound < next.lowerBound
    }

    /// The segments of `read` (newest first, as the structure record lists them) that
    /// `claims` gives this connection, oldest first, each when it is asked for.
    static func oldestFirst(
        _ read: ArraySlice<FTS5Segment>, claimedBy claims: SegmentClaims
    ) -> some Sequence<ArraySlice<FTS5Segment>.Index> {
        sequence(state: ()) { _ in
            claims.next(read.count).map { read.endIndex - 1 - $0 }
        }
    }

    /// The key of the term that drives a streamed walk of the plan (see
    /// ``stream(into:segments:rows:keys:)``), its phrases' `keys` given: its first match
    /// phrase's, when the plan is of one token, that phrase is of one term, and so is each
    /// signal; nil when the plan does not stream.
    func driver(of keys: [PhraseKeys]) -> [UInt8]? {
        guard plan.tokenCount == 1, case .one(let driver, isPrefix: false) = keys[0],
            zip(plan.phrases, keys).allSatisfy({ phrase, key in
                if case .one = key { true } else { phrase.isMatch }
            })
        else { return nil }
        return driver
    }

    /// Whether the plan streams on its index (see ``driver(of:)``).
    func streams() throws -> Bool {
        try phraseKeys().flatMap(driver(of:)) != nil
    }

    /// What ``stream(into:segments:rows:keys:)`` did.
    enum Streamed {
        /// The plan's matches, or nil when the doclists cannot serve it.
        case collected(MatchCollection?)
        /// The plan is not one a ``StreamedRowScorer`` serves; the collector is untouched.
        case notStreamed
        /// The doclist's rowids did not ascend through its segments; the collector has seen
        /// some of its rows.
        case outOfOrder
    }

    /// For a plan of one token whose first match phrase is of one term (it drives the walk),
    /// its signals each of one term, on segments that do not look like single writes':
    /// segment by segment, oldest first, the other phrases decoded, then the first scored as it
    /// is decoded (see ``StreamedRowScorer``). Out of order when a segment holds a rowid at or
    /// below one of a segment before it.
    func stream(
        into collector: FTS5RankCollector, segments: Segments, rows: ClosedRange<Int64>,
        keys: [PhraseKeys]
    ) throws -> Streamed {
        guard let driver = driver(of: keys) else { return .notStreamed }
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
                collector: collector, columnCount: plan.weights.count, rows: rows,
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
                var others: [DoclistEntries] = []
                for key in keys.dropFirst() {
                    others.append(
                        try entries(
                            of: key, in: read[segment...segment], reader: reader, span: &span,
                            wanted: nil))
                }
                streaming.startSegment(others: others)
                try reader.appendDoclist(of: driver, in: read[segment], to: streaming)
                try streaming.endSegment()
                let decoded = Self.union(span, streaming.decodedRowids)
                guard Self.ascends(rowids, then: decoded) else {
                    return segments.isAll ? .outOfOrder : .collected(nil)
                }
                rowids += decoded.map { [$0] } ?? []
            }
            return .collected(
                MatchCollection(collector: collector, structure: record, rowids: rowids))
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
}
