import FTSearchSQLite

/// The page of a search ordered by sort fields: every match by the fields' values (records
/// without one last), ties by relevance (``QueryEngine/Relevance``).
///
/// Only the matches that can reach the page are ordered: for each kind, a count of its
/// matches by the rank of their first sort value finds the value the page's end reaches, and
/// only the matches up to it (with all that tie with it) are sorted; those that tie on every
/// sort field, and the page's own, are then ranked by relevance among themselves.
struct SortedPage {
    let engine: QueryEngine
    let request: SearchRequest
    let tables: [FieldTable]
    let matches: [Kind: RowSet]
    let relevance: QueryEngine.Relevance

    private struct Candidate {
        var kind: Kind
        var rowid: Int64
        var values: [FieldTerm?]
        var position = 0
        var hit: RankedOrder.Entry?
    }

    func hits() throws -> [SearchHit] {
        let total = matches.values.reduce(0) { $0 + $1.count }
        let end = request.limit.map { min(request.offset + $0, total) } ?? total
        guard end > request.offset else { return [] }
        var candidates: [Candidate] = []
        for table in tables {
            guard let rows = matches[table.kind] else { continue }
            candidates += self.candidates(in: table, rows: rows, end: end)
        }
        candidates.sort { precedes($0, $1) }
        // The rows whose order relevance decides: the page's, and every row tied with one.
        let pageRange = request.offset..<min(end, candidates.count)
        var ranked: [Kind: RowSet] = [:]
        var first = pageRange.lowerBound
        while first > 0, ties(candidates[first - 1], candidates[pageRange.lowerBound]) {
            first -= 1
        }
        var last = pageRange.upperBound
        while last < candidates.count, ties(candidates[last], candidates[pageRange.upperBound - 1])
        {
            last += 1
        }
        for candidate in candidates[first..<last] {
            ranked[candidate.kind, default: RowSet(capacity: 0)].insert(candidate.rowid)
        }
        let positions = try relevanceOrder(of: ranked)
        var window = Array(candidates[first..<last])
        for index in window.indices {
            let key = RowKey(kind: window[index].kind, rowid: window[index].rowid)
            window[index].position = positions[key]?.position ?? .max
            window[index].hit = positions[key]?.entry
        }
        window.sort { precedes($0, $1) || (!precedes($1, $0) && $0.position < $1.position) }
        let page = window.dropFirst(pageRange.lowerBound - first).prefix(pageRange.count)
        var records = RecordRows.Readers(database: engine.database)
        return try page.compactMap { candidate in
            guard let record = try records.record(of: candidate.kind, id: candidate.rowid) else {
                return nil
            }
            let entry = candidate.hit
            return SearchHit(
                record: record, score: entry?.score ?? 0, tier: entry?.tier ?? .unranked)
        }
    }

    /// The matches of `table` that can be among the first `end` in sort order: those whose
    /// first sort value ranks no lower than the value the `end`-th reaches.
    private func candidates(in table: FieldTable, rows: RowSet, end: Int) -> [Candidate] {
        let columns = request.sort.map { table.columns[$0.field] }
        guard let firstColumn = columns[0] else {
            // No record of the kind has the field: all of its matches tie, last.
            return rows.rowids.map { candidate($0, in: table, columns) }
        }
        let descending = request.sort[0].descending
        let last = Int32(firstColumn.terms.count - 1)
        let ranks = descending ? firstColumn.ranks.map { last - $0 } : firstColumn.ranks
        let missing = Int32(firstColumn.terms.count)
        var keys: [Int32] = []
        keys.reserveCapacity(rows.count)
        var histogram = Array(repeating: 0, count: firstColumn.terms.count + 1)
        // Each match's key, its lowest rank: one pass over the bitmap's words, in place.
        firstColumn.starts.withUnsafeBufferPointer { starts in
            firstColumn.codes.withUnsafeBufferPointer { codes in
                ranks.withUnsafeBufferPointer { ranks in
                    histogram.withUnsafeMutableBufferPointer { histogram in
                        for (index, word) in rows.words.enumerated() where word != 0 {
                            var bits = word
                            while bits != 0 {
                                let row = index &* 64 &+ bits.trailingZeroBitCount
                                bits &= bits &- 1
                                var key = missing
                                if row + 1 < starts.count {
                                    for code in Int(starts[row])..<Int(starts[row + 1]) {
                                        key = min(key, ranks[Int(codes[code])])
                                    }
                                }
                                keys.append(key)
                                histogram[Int(key)] &+= 1
                            }
                        }
                    }
                }
            }
        }
        var reach = missing
        var counted = 0
        for (key, count) in histogram.enumerated() {
            counted += count
            if counted >= end {
                reach = Int32(key)
                break
            }
        }
        var result: [Candidate] = []
        var index = 0
        rows.forEach { rowid in
            if keys[index] <= reach { result.append(candidate(rowid, in: table, columns)) }
            index += 1
        }
        return result
    }

    private func candidate(_ rowid: Int64, in table: FieldTable, _ columns: [FieldColumn?])
        -> Candidate
    {
        let values = zip(columns, request.sort).map { column, key -> FieldTerm? in
            guard let column else { return nil }
            var best: FieldTerm?
            for code in column.codes(of: Int(rowid)) {
                let term = column.terms[Int(code)]
                if let current = best {
                    if key.descending ? current.precedes(term) : term.precedes(current) {
                        best = term
                    }
                } else {
                    best = term
                }
            }
            return best
        }
        return Candidate(kind: table.kind, rowid: rowid, values: values)
    }

    /// Whether `a` comes before `b` by the sort fields alone.
    private func precedes(_ a: Candidate, _ b: Candidate) -> Bool {
        for (index, key) in request.sort.enumerated() {
            switch (a.values[index], b.values[index]) {
            case (nil, nil): continue
            case (.some, nil): return true
            case (nil, .some): return false
            case (let mine?, let theirs?):
                let (first, second) = key.descending ? (theirs, mine) : (mine, theirs)
                if first.precedes(second) { return true }
                if second.precedes(first) { return false }
            }
        }
        return false
    }

    private func ties(_ a: Candidate, _ b: Candidate) -> Bool {
        !precedes(a, b) && !precedes(b, a)
    }

    private struct RowKey: Hashable {
        var kind: Kind
        var rowid: Int64
    }

    /// The position of each of `rows` in relevance order among them, with its rank entry
    /// when the text is ranked.
    private func relevanceOrder(of rows: [Kind: RowSet]) throws
        -> [RowKey: (position: Int, entry: RankedOrder.Entry?)]
    {
        var positions: [RowKey: (position: Int, entry: RankedOrder.Entry?)] = [:]
        switch relevance {
        case .listing:
            for table in tables {
                guard let set = rows[table.kind] else { continue }
                for id in try engine.listingOrder(of: table.kind, rows: set) {
                    positions[RowKey(kind: table.kind, rowid: id)] = (positions.count, nil)
                }
            }
        case .ranked(let plans):
            let count = rows.values.reduce(0) { $0 + $1.count }
            guard count > 0 else { return positions }
            let restricted = plans.map {
                $0.admitting(rows[$0.kind] ?? RowSet(capacity: 0), collectsMatches: false)
            }
            var page = request
            (page.offset, page.limit) = (0, count)
            for entry in try engine.rankedOrder(of: restricted, request: page).entries {
                positions[RowKey(kind: entry.kind, rowid: entry.rowid)] = (positions.count, entry)
            }
        }
        return positions
    }
}
