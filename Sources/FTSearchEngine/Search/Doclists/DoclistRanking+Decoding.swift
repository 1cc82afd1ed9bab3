import FTS5Segments
import FTSearchSQLite

/// Decoding the plan's doclists from the segments and walking their rows (see
/// ``DoclistRanking``).
extension DoclistRanking {
    /// The index's structure record (`%_data` row 10), as ``MatchCollection/structure`` holds it.
    func structureRecord() throws -> [UInt8]? {
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
    func decoded(_ segments: Segments) throws -> Decoded? {
        try database.readingOneVersion {
            guard let keys = try phraseKeys() else { return nil }
            return try decode(segments, keys: keys)
        }
    }

    func decode(_ segments: Segments, keys: [PhraseKeys]) throws -> Decoded? {
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
    func decode(
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
    func decodingOrder(first: Int?) -> [Int] {
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
    func smallestToken(
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
    func segments(_ segments: Segments, reader: FTS5SegmentReader) throws(FTS5FormatError)
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
    func rank(
        _ decoded: Decoded, rows: ClosedRange<Int64>, matchPhraseRows: [Int64]? = nil,
        into collector: FTS5RankCollector
    ) -> MatchCollection? {
        defer { collector.closeSizeReader() }
        collector.start(
            rowCount: decoded.rowCount, tokenCount: decoded.tokenCount,
            matchPhraseRows: plan.matchPhraseCount > 1
                ? matchPhraseRows
                    ?? decoded.lists.prefix(plan.matchPhraseCount).map { Int64($0.count) } : [])
        guard walk(decoded.lists, rows: rows, into: collector) else { return nil }
        return MatchCollection(
            collector: collector, structure: decoded.structure,
            rowids: decoded.rowids.map { [$0] } ?? [])
    }

    /// How a phrase is found in the index: one term, by its key (its term after the byte of
    /// the index it is in), or the terms of a key's range; or several terms in a row.
    enum PhraseKeys {
        case one(key: [UInt8], isPrefix: Bool)
        case sequence(keys: [[UInt8]])
    }

    /// Each phrase's keys in the index, its terms as its tokenizer makes them; nil for an
    /// index the reader does not decode (see ``IndexOptions``), or a prefix phrase of several
    /// terms.
    func phraseKeys() throws -> [PhraseKeys]? {
        guard
            let options = try IndexOptions(
                of: plan.index, in: database, formatVersion: formatVersion)
        else { return nil }
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
    func entries(
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
    static func rowids(of lists: [DoclistEntries], columnCount: Int) -> [Int64] {
        guard !lists.isEmpty else { return [] }
        let united = DoclistEntries.union(lists, columnCount: columnCount)
        return Array(UnsafeBufferPointer(start: united.rowids, count: united.count))
    }

    /// Hands the collector every row where each token has a match-phrase hit, with all its
    /// phrases' hits in (column, offset) order; false when a row's size cannot be read, or the
    /// connection's interrupt check says stop.
    func walk(
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
