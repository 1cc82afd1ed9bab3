import FTSearchSQLite

/// The reference plan: count every match, then rank every match with `bm25()` and a subquery
/// per tier signal, and list everything with SQLite's ORDER BY. Simple and obviously right, it
/// defines the order the engine's one plan (``RankedPage``) must reproduce: no search runs it;
/// the tests (`FastRankingTests`, `DeepPageTests`, the pool's concurrency tests) and
/// `scripts/bench` do, through ``SearchIndex/referenceSearch(_:)``.
extension QueryEngine {
    /// Runs `request` with the reference plan.
    package func referenceSearch(_ request: SearchRequest) throws -> SearchResults {
        try request.validate()
        if request.listsEverything { return try listEverything(request, inSQL: true) }
        guard let (plans, empty) = try plans(for: request) else {
            return SearchResults(query: request.text, total: 0, hits: [], tokens: [])
        }
        return try referenceSearch(plans, request: request, empty: empty)
    }

    /// The reference plan: count every match, then rank every match with `bm25()` and a
    /// subquery per tier signal. Simple and obviously right, it defines the order the fast plan
    /// (``RankedPage``) must reproduce, and serves unbounded pages.
    fileprivate func referenceSearch(
        _ plans: [MatchPlan], request: SearchRequest, empty: SearchResults
    ) throws -> SearchResults {
        var results = empty
        results.total = try count(plans)
        if results.total > request.offset, request.limit != 0, !plans.isEmpty {
            results.hits = try rankedHits(plans, request: request)
        }
        return try withDidYouMean(results, request: request)
    }

    fileprivate func count(_ plans: [MatchPlan]) throws -> Int {
        try plans.reduce(0) { total, plan in
            total
                + (try database.cachedStatement(sql: "SELECT count(*) FROM \(plan.index)(?1)")
                    .firstRow([plan.matchQuery]) { $0.int(at: 0) } ?? 0)
        }
    }

    fileprivate func rankedHits(_ plans: [MatchPlan], request: SearchRequest) throws -> [SearchHit]
    {
        var arguments: StatementArguments = []
        let selects = plans.map { rankedSelect(for: $0, arguments: &arguments) }
        let sql =
            selects.joined(separator: "\nUNION ALL\n")
            + "\nORDER BY tier DESC, score DESC, sort_key COLLATE NOCASE, kind, id LIMIT ?\(arguments.count + 1) OFFSET ?\(arguments.count + 2)"
        arguments += [request.limit ?? -1, request.offset]
        return try hits(from: database.cachedStatement(sql: sql), arguments)
    }

    /// `SELECT kind, id, score, tier, sort_key` for one plan, `tier` being the ``RankTier``;
    /// appends its parameters to `arguments`.
    fileprivate func rankedSelect(for plan: MatchPlan, arguments: inout StatementArguments)
        -> String
    {
        func parameter(_ value: String) -> String {
            arguments.append(value)
            return "?\(arguments.count)"
        }
        func hits(_ query: String?) -> String {
            guard let query else { return "0" }
            return "(m.rowid IN (SELECT rowid FROM \(plan.index)(\(parameter(query)))))"
        }
        let match = parameter(plan.matchQuery)
        let fieldNames = plan.kind.searchableFields
        var fields: [String] = []
        var whole: [String] = []
        var typos: [String] = []
        var infix: [String] = []
        var accents: [String] = []
        for token in 0..<plan.tokenCount {
            if let accent = plan.query(ofPhrases: { $0.token == token && $0.isAccentExact }) {
                accents.append(hits(accent))
            }
            // The level of the best field the token matched in: one for each level up to it.
            if let matched = plan.query(ofPhrases: { $0.token == token && $0.isMatch }) {
                for level in stride(from: 1, through: plan.topFieldLevel, by: 1) {
                    let columns = fieldNames.indices.filter { plan.fieldLevels[$0] >= level }
                    fields.append(
                        hits(
                            "{" + columns.map { fieldNames[$0] }.joined(separator: " ")
                                + "} : (" + matched + ")"))
                }
            }
            whole.append(hits(plan.query { $0.token == token && $0.isWhole }))
            let typoLevels = Set(
                plan.phrases.filter { $0.token == token && $0.isMatch }.map(\.typos)
            )
            .sorted()
            if typoLevels != [0] {
                let cases = typoLevels.map { level in
                    "WHEN \(hits(plan.query { $0.token == token && $0.isMatch && $0.typos == level })) THEN \(level)"
                }
                typos.append("(CASE \(cases.joined(separator: " ")) END)")
            }
            if plan.phrases.contains(where: { $0.token == token && $0.isMatch && !$0.startsWord }) {
                infix.append(
                    "(1 - \(hits(plan.query { $0.token == token && ($0.startsWord || $0.isWhole) })))"
                )
            }
        }
        let tier = RankTier.sql(
            fields: fields.isEmpty ? "0" : fields.joined(separator: " + "),
            whole: whole.joined(separator: " + "),
            typos: typos.isEmpty ? "0" : typos.joined(separator: " + "),
            infix: infix.isEmpty ? "0" : infix.joined(separator: " + "),
            accents: accents.isEmpty ? "0" : accents.joined(separator: " + "))
        let weights = plan.weights.map { String($0) }.joined(separator: ", ")
        return """
            SELECT '\(plan.kind.rawValue)' AS kind, m.rowid AS id, -m.bm25 AS score, \(tier) AS tier,
                   \(SortName.sql(of: plan.kind, table: "c")) AS sort_key
            FROM (SELECT rowid, bm25(\(plan.index), \(weights)) AS bm25
                  FROM \(plan.index) WHERE \(plan.index) MATCH \(match)) AS m
            JOIN \(plan.kind.tableName) AS c ON c.id = m.rowid
            """
    }

    /// The hits of the rows of `statement`, shaped `kind, id, score, tier, ...`, each record
    /// read whole (see ``RankedOrder/hits(offset:limit:from:)``).
    fileprivate func hits(from statement: Statement, _ arguments: StatementArguments) throws
        -> [SearchHit]
    {
        var hits: [SearchHit] = []
        var records = RecordRows.Readers(database: database)
        try statement.forEachRow(arguments) { row in
            let entry = RankedOrder.Entry(
                kind: Kind(selectedAt: 0, of: row), rowid: row.int64(at: 1),
                score: row.double(at: 2),
                tier: RankTier(rawValue: row.int(at: 3)))
            if let hit = try entry.hit(from: &records) { hits.append(hit) }
        }
        return hits
    }
}
