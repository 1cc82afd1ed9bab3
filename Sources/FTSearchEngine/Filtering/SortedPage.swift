import FTSearchSQLite

/// The page of a search ordered by sort fields: every match by the fields' values (records
/// without one last), ties by relevance (with an empty text, by the listing order).
///
/// Only the matches that can reach the page are ordered: those whose first sort value ranks
/// no lower than the value the page's end reaches (see ``SortReach``), with all that tie with
/// it. For a ranked text they are found by one walk of each plan's doclists, which counts
/// every match and scores only those (the collectors in sort order, see ``FTS5RankCollector``);
/// for an empty text, among the matches known. They are sorted, and those that tie on every
/// sort field with the page's own are ordered by relevance among themselves: by their tier and
/// score, then as the plain search breaks ties (``RankedPage/ordered(_:)``), or in the listing
/// order.
struct SortedPage {
    let engine: QueryEngine
    let request: SearchRequest
    let tables: [FieldTable]

    private struct Candidate {
        var kind: Kind
        var rowid: Int64
        var values: [FieldTerm?]
        /// Its tier and score, when the text is ranked.
        var ranked: FTS5RankCollector.Ranked?
        var position = 0
        var hit: RankedOrder.Entry?
    }

    /// The page's end in sort order (`Int.max`: every match).
    private var end: Int {
        guard let limit = request.limit else { return .max }
        let (end, overflow) = request.offset.addingReportingOverflow(limit)
        return overflow ? .max : end
    }

    /// The page among `matches`, an empty text's, whose ties are in the listing order.
    func order(listing matches: [Kind: RowSet]) throws -> RankedOrder {
        let total = matches.values.reduce(0) { $0 + $1.count }
        var candidates: [Candidate] = []
        for table in tables {
            guard let rows = matches[table.kind] else { continue }
            let reach = SortReach(order(of: table, end: min(end, total)))
            candidates += reach.reaching(rows).map { candidate($0, in: table) }
        }
        return try order(among: candidates, total: total)
    }

    /// The page of the matches of `plans` (one per kind searched) among the rows `admitted`
    /// (nil: every row), the total of those matches, and (when `collectsMatches`) every one of
    /// them: one walk of each plan's matches in sort order, ties by relevance.
    func order(ranking plans: [MatchPlan], admitted: [Kind: RowSet]?, collectsMatches: Bool)
        throws -> (order: RankedOrder, matches: [Kind: RowSet])
    {
        let sorting = plans.map { plan in
            plan.admitting(
                admitted?[plan.kind], collectsMatches: collectsMatches,
                order: tables.first { $0.kind == plan.kind }.map { order(of: $0, end: end) })
        }
        var walk = request
        (walk.offset, walk.limit) = (0, end)
        let (total, ranked, _) = try RankedPage(
            database: engine.database, plans: sorting, request: walk, sources: engine.sources
        ).collect()
        var candidates: [Candidate] = []
        for row in ranked {
            guard let table = tables.first(where: { $0.kind == row.kind }) else { continue }
            candidates.append(candidate(row.rowid, in: table, ranked: row))
        }
        var matches: [Kind: RowSet] = [:]
        for plan in sorting {
            if collectsMatches, let rows = plan.rowFilter?.matches { matches[plan.kind] = rows }
        }
        return (try order(among: candidates, total: total), matches)
    }

    /// How `table`'s matches are ordered for a page ending at `end`: by the first sort field.
    private func order(of table: FieldTable, end: Int) -> SortReach.Order {
        SortReach.Order(
            column: table.columns[request.sort[0].field], descending: request.sort[0].descending,
            end: end)
    }

    /// The page among `candidates` (every match of `total` that can reach it, perhaps more),
    /// ranked by relevance where they tie: the order from the page's offset, in sort order.
    private func order(among candidates: [Candidate], total: Int) throws -> RankedOrder {
        let end = min(self.end, total)
        var order = RankedOrder(total: total, start: request.offset, entries: [])
        guard end > request.offset else { return order }
        var candidates = candidates
        candidates.sort { precedes($0, $1) }
        // The rows whose order relevance decides: the page's, and every row tied with one.
        let pageRange = request.offset..<min(end, candidates.count)
        guard !pageRange.isEmpty else { return order }
        var first = pageRange.lowerBound
        while first > 0, ties(candidates[first - 1], candidates[pageRange.lowerBound]) {
            first -= 1
        }
        var last = pageRange.upperBound
        while last < candidates.count, ties(candidates[last], candidates[pageRange.upperBound - 1])
        {
            last += 1
        }
        var window = Array(candidates[first..<last])
        try placeByRelevance(&window)
        window.sort { precedes($0, $1) || (!precedes($1, $0) && $0.position < $1.position) }
        let page = window.dropFirst(pageRange.lowerBound - first).prefix(pageRange.count)
        order.entries = page.map { candidate in
            candidate.hit
                ?? RankedOrder.Entry(
                    kind: candidate.kind, rowid: candidate.rowid, score: 0, tier: .unranked)
        }
        return order
    }

    private func candidate(
        _ rowid: Int64, in table: FieldTable, ranked: FTS5RankCollector.Ranked? = nil
    ) -> Candidate {
        let values = request.sort.map { key -> FieldTerm? in
            guard let column = table.columns[key.field] else { return nil }
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
        return Candidate(kind: table.kind, rowid: rowid, values: values, ranked: ranked)
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

    /// Sets the position of each of `window` in relevance order among them, and its rank
    /// entry when the text is ranked: by the tiers and scores the walk found, or for an empty
    /// text in the listing order.
    private func placeByRelevance(_ window: inout [Candidate]) throws {
        let ranked = window.compactMap(\.ranked)
        guard ranked.count == window.count else {
            var rows: [Kind: RowSet] = [:]
            for candidate in window {
                rows[candidate.kind, default: RowSet(capacity: 0)].insert(candidate.rowid)
            }
            var positions: [Kind: [Int64: Int]] = [:]
            var position = 0
            for table in tables {
                guard let set = rows[table.kind] else { continue }
                for id in try engine.listingOrder(of: table.kind, rows: set) {
                    positions[table.kind, default: [:]][id] = position
                    position += 1
                }
            }
            for index in window.indices {
                window[index].position =
                    positions[window[index].kind]?[window[index].rowid] ?? .max
            }
            return
        }
        var page = request
        (page.offset, page.limit) = (0, ranked.count)
        var rows = ranked
        let order = try RankedPage(
            database: engine.database, plans: [], request: page, sources: engine.sources
        ).ordered(&rows)
        var positions: [Kind: [Int64: (position: Int, entry: RankedOrder.Entry)]] = [:]
        for (position, entry) in order.enumerated() {
            positions[entry.kind, default: [:]][entry.rowid] = (position, entry)
        }
        for index in window.indices {
            let placed = positions[window[index].kind]?[window[index].rowid]
            window[index].position = placed?.position ?? .max
            window[index].hit = placed?.entry
        }
    }
}
