import FTSearchSQLite

/// Searches that sort or count facets, and filters of an empty text: the same matches and
/// relevance as a plain search (the collectors skip the rows a filter does not admit and note
/// every match, see ``RowFilter``), read against the records' fields in memory
/// (``FieldTable``). (A filter of a ranked text alone is a plain search restricted, whose
/// rankings are kept as any other: see ``RankingRestriction``.) A search that counts facets
/// keeps its matches while the records are unchanged (``FieldTableCache``): the same search
/// again, its next page or another of its facets counts over them, and then only ranks the
/// page, or (unfiltered) takes the plain search's kept ranking. A sorted page is one walk of
/// the matches in sort order (``SortedPage``), kept (without facets) as a ranking is, its
/// filter and sort in the key (``RankingRestriction``).
extension QueryEngine {
    /// A prefix search that finds nothing suggests a correction that finds something with the
    /// same filter (see ``withDidYouMean(_:request:)``).
    func structuredSearch(_ request: SearchRequest) throws -> SearchResults {
        let (results, tables, matches) = try structuredResults(request)
        return try withDidYouMean(
            Self.withFacets(results, request: request, tables: tables, matches: matches),
            request: request)
    }

    /// The results of `request` without facets, the fields of the kinds searched, and every
    /// match of each kind when the request counts facets.
    package func structuredResults(_ request: SearchRequest) throws
        -> (results: SearchResults, tables: [FieldTable], matches: [Kind: RowSet])
    {
        var read: [FieldColumnStore.Entry] = []
        var keeping: [() -> Void] = []
        let answer = try database.readingOneVersion {
            try structuredResults(request, reading: &read, keeping: &keeping)
        }
        FieldColumnStore.keep(read, in: database)
        for keep in keeping { keep() }
        return answer
    }

    /// ``structuredResults(_:)`` in the caller's read transaction; the columns it read from
    /// the records added to `read`, and what keeping its ranking takes (a write, for after the
    /// transaction) to `keeping`.
    private func structuredResults(
        _ request: SearchRequest, reading read: inout [FieldColumnStore.Entry],
        keeping: inout [() -> Void]
    ) throws -> (results: SearchResults, tables: [FieldTable], matches: [Kind: RowSet]) {
        do {
            // A sorted page (without facets) is kept as a ranking is, its filter and sort in
            // the key: served before any column is read or the filter evaluated.
            var sortedSlot: ResultCache.Slot?
            var found: ([MatchPlan], SearchResults)?
            if !request.sort.isEmpty, request.facets.isEmpty, request.limit ?? 0 > 0,
                !request.listsEverything, let resultCache,
                let (plans, empty) = try plans(for: request)
            {
                found = (plans, empty)
                let restriction = try RankingRestriction(
                    request.filter, sort: request.sort, kinds: plans.map(\.kind), in: self)
                let slot = try resultCache.slot(for: plans, restriction: restriction)
                if let order = try resultCache.order(
                    in: slot, covering: request.pageEnd, plans: plans, tokenizer: tokenizer)
                {
                    var results = empty
                    results.total = order.total
                    results.hits = try order.hits(
                        offset: request.offset, limit: request.limit ?? 0, from: database)
                    return (results, [], [:])
                }
                if request.pageEnd <= ResultCache.longestKeptRanking { sortedSlot = slot }
            }
            let fields = Set(
                (request.filter?.fields ?? []) + request.sort.map(\.field) + request.facets)
            let tables = try request.kinds.inOrder.map {
                try FieldTableCache.table(
                    of: $0, fields: fields, in: database, tokenizer: tokenizer,
                    cache: fieldTables, read: &read)
            }
            let admitted = request.filter.map { filter in
                admittedRows(by: filter, in: tables)
            }
            let needsMatches = !request.facets.isEmpty
            let sorts = !request.sort.isEmpty && request.limit != 0
            var results: SearchResults
            var matches: [Kind: RowSet] = [:]
            if request.listsEverything {
                for table in tables { matches[table.kind] = admitted?[table.kind] ?? table.records }
                results = SearchResults(
                    query: request.text, total: matches.values.reduce(0) { $0 + $1.count },
                    hits: [], tokens: [])
                if sorts {
                    let order = try SortedPage(engine: self, request: request, tables: tables)
                        .order(listing: matches)
                    results.hits = try order.hits(
                        offset: request.offset, limit: request.limit ?? results.total,
                        from: database)
                } else if request.sort.isEmpty {
                    // Unfiltered, every record: the plain listing, placed by the sort codes.
                    results.hits =
                        admitted == nil
                        ? try listEverything(request).hits
                        : try listedPage(request, matches: matches, tables: tables)
                }
            } else {
                guard let (plans, empty) = try found ?? plans(for: request) else {
                    return (
                        SearchResults(query: request.text, total: 0, hits: [], tokens: []), tables,
                        [:]
                    )
                }
                results = empty
                let search = FieldTableCache.MatchKey(request)
                let kept =
                    needsMatches ? keptMatches(of: search, plans: plans, tables: tables) : nil
                if sorts {
                    // One walk in sort order: the page, the total, and the matches for facets.
                    // A page to keep is ordered from the first match.
                    let collects = kept == nil && needsMatches
                    var page = request
                    if sortedSlot != nil { (page.offset, page.limit) = (0, request.pageEnd) }
                    let started = ContinuousClock.now
                    let sorted = try SortedPage(engine: self, request: page, tables: tables)
                        .order(ranking: plans, admitted: admitted, collectsMatches: collects)
                    let cost = ContinuousClock.now - started
                    results.total = sorted.order.total
                    results.hits = try sorted.order.hits(
                        offset: request.offset, limit: request.limit ?? results.total,
                        from: database)
                    if let sortedSlot, let resultCache, resultCache.keeps(sorted.order, cost: cost)
                    {
                        keeping.append {
                            resultCache.keep(sorted.order, in: sortedSlot, cost: cost)
                        }
                    }
                    matches = kept ?? sorted.matches
                    for table in tables where collects {
                        if let rows = sorted.matches[table.kind] {
                            fieldTables?.keep(rows, of: search, in: table)
                        }
                    }
                } else if let kept {
                    matches = kept
                    results.total = kept.values.reduce(0) { $0 + $1.count }
                    if request.limit != 0, results.total > request.offset {
                        results.hits = try page(
                            of: request, plans: plans, admitted: admitted, total: results.total)
                    }
                } else {
                    let filtered = plans.map {
                        $0.admitting(admitted?[$0.kind], collectsMatches: needsMatches)
                    }
                    var page = request
                    if request.limit ?? 0 == 0 { (page.offset, page.limit) = (0, 1) }
                    var order = try rankedOrder(of: filtered, request: page)
                    results.total = order.total
                    if request.limit == nil, order.total > request.offset {
                        page.limit = order.total - request.offset
                        order = try rankedOrder(of: filtered, request: page)
                    }
                    if request.limit != 0 {
                        results.hits = try order.hits(
                            offset: request.offset, limit: page.limit ?? 0, from: database)
                    }
                    for plan in filtered {
                        guard let rows = plan.rowFilter?.matches else { continue }
                        matches[plan.kind] = rows
                        if needsMatches, let table = tables.first(where: { $0.kind == plan.kind }) {
                            fieldTables?.keep(rows, of: search, in: table)
                        }
                    }
                }
            }
            return (results, tables, matches)
        }
    }

    /// The matches of `search` for each of `plans`, when the field tables keep them all.
    private func keptMatches(
        of search: FieldTableCache.MatchKey, plans: [MatchPlan], tables: [FieldTable]
    ) -> [Kind: RowSet]? {
        guard let fieldTables else { return nil }
        var kept: [Kind: RowSet] = [:]
        for plan in plans {
            guard let table = tables.first(where: { $0.kind == plan.kind }),
                let rows = fieldTables.matches(of: search, in: table)
            else { return nil }
            kept[plan.kind] = rows
        }
        return kept
    }

    /// The page of `request` (which does not sort) in relevance order, its matches known:
    /// unfiltered, the plain search's page (its ranking kept, see ``ResultCache``); filtered,
    /// ranked afresh among the rows the filter admits.
    private func page(
        of request: SearchRequest, plans: [MatchPlan], admitted: [Kind: RowSet]?, total: Int
    ) throws -> [SearchHit] {
        guard let admitted else {
            var plain = request
            plain.facets = []
            return try search(plain).hits
        }
        let restricted = plans.map {
            $0.admitting(admitted[$0.kind] ?? RowSet(capacity: 0), collectsMatches: false)
        }
        var page = request
        if page.limit == nil { page.limit = total - request.offset }
        return try rankedOrder(of: restricted, request: page).hits(
            offset: request.offset, limit: page.limit ?? 0, from: database)
    }

    /// The rows of each table that `filter` keeps.
    func admittedRows(by filter: Filter, in tables: [FieldTable]) -> [Kind: RowSet] {
        var admitted: [Kind: RowSet] = [:]
        for table in tables {
            var evaluation = FilterEvaluation(
                table: table, folding: TextFolding(tokenizer: tokenizer))
            admitted[table.kind] = evaluation.rows(matching: filter)
        }
        return admitted
    }

    /// The ranked order of `plans` (whose collectors apply their row filters) up to the end of
    /// `request`'s page, ranked afresh.
    func rankedOrder(of plans: [MatchPlan], request: SearchRequest) throws -> RankedOrder {
        try RankedPage(database: database, plans: plans, request: request, sources: sources)
            .order()
    }

    /// `results` with the facets `request` asks for, counted over `matches`.
    static func withFacets(
        _ results: SearchResults, request: SearchRequest, tables: [FieldTable],
        matches: [Kind: RowSet]
    ) -> SearchResults {
        var results = results
        for field in request.facets {
            let parts = tables.map { ($0, matches[$0.kind] ?? RowSet(capacity: 0)) }
            let (values, stats) = FacetCounts.count(field, over: parts)
            results.facets[field] = values
            if let stats { results.facetStats[field] = stats }
        }
        return results
    }

    /// The page of `request` among `matches` in the listing order: kinds in order, each by
    /// sort name and id.
    private func listedPage(
        _ request: SearchRequest, matches: [Kind: RowSet], tables: [FieldTable]
    ) throws -> [SearchHit] {
        var hits: [SearchHit] = []
        var skipped = 0
        var records = RecordRows.Readers(database: database)
        for table in tables {
            let rows = matches[table.kind] ?? RowSet(capacity: 0)
            let count = rows.count
            let skip = max(0, request.offset - skipped)
            skipped += count
            let wanted = min(request.limit.map { $0 - hits.count } ?? .max, count - skip)
            guard wanted > 0 else { continue }
            for id in try listingOrder(of: table.kind, rows: rows, offset: skip, limit: wanted) {
                if let record = try records.record(of: table.kind, id: id) {
                    hits.append(SearchHit(record: record, score: 0, tier: .unranked))
                }
            }
        }
        return hits
    }

    /// `rows` of `kind` in the listing order (sort name, id), from position `offset`.
    func listingOrder(of kind: Kind, rows: RowSet, offset: Int = 0, limit: Int = .max) throws
        -> [Int64]
    {
        var ids: [Int64] = []
        let list = "[" + rows.rowids.map(String.init).joined(separator: ",") + "]"
        try database.cachedStatement(
            sql: """
                SELECT id FROM \(kind.tableName) WHERE id IN (SELECT value FROM json_each(?1))
                ORDER BY (\(SortName.sql(of: kind))) COLLATE NOCASE, id LIMIT ?2 OFFSET ?3
                """
        ).forEachRow([list, Int64(clamping: limit), offset]) { ids.append($0.int64(at: 0)) }
        return ids
    }
}
