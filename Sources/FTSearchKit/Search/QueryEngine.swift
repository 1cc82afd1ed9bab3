/// Runs ranked prefix searches against the FTS5 indexes.
///
/// Order: records matching more query tokens as whole words first (`ann` puts Ann above
/// Annabelle, which bm25 alone would not), then bm25 with field weights (names above company),
/// then sort name and id, so equal results always come in the same order.
///
/// Two plans give that order: the fast one (``RankedPage``) for pages of up to
/// ``largestRankedPage`` results, and the reference one (``referenceSearch(_:request:)``),
/// which ranks every match with `bm25()`, for longer pages and as the benchmark baseline.
struct QueryEngine {
    let database: Database
    let tokenizer: FTS5Tokenizer
    /// A second connection for ranking large tables in two halves at once, opened on demand.
    var helper: () -> RankingHelper? = { nil }
    /// Tables whose rowids span fewer than this are ranked on one connection.
    var parallelMinimumSpan: Int64 = 200_000

    /// Column weights for bm25, in index column order (https://sqlite.org/fts5.html#the_bm25_function).
    static func weights(of kind: Kind) -> [Double] {
        switch kind {
        case .people: [10, 10, 4]
        case .animals: [10]
        }
    }

    func search(_ request: SearchRequest) throws -> SearchResults {
        if request.listsEverything {
            return try listEverything(request)
        }
        guard let pattern = SearchPattern(matchingAllPrefixesIn: request.text, tokenizer: tokenizer)
        else {
            return SearchResults(query: request.text, total: 0, hits: [], tokens: [])
        }
        if let limit = request.limit, limit > 0, request.offset + limit <= Self.largestRankedPage {
            return try RankedPage(
                database: database, pattern: pattern, request: request, helper: helper,
                parallelMinimumSpan: parallelMinimumSpan
            ).results()
        }
        return try referenceSearch(pattern, request: request)
    }

    /// Pages that end beyond this many results are ranked by ``referenceSearch(_:request:)``.
    static let largestRankedPage = 2000

    /// The reference plan: count every match, then rank every match with `bm25()`. Simple and
    /// obviously right, it defines the order the fast plan (``RankedPage``) must reproduce, and
    /// serves unbounded pages.
    func referenceSearch(_ pattern: SearchPattern, request: SearchRequest) throws -> SearchResults {
        let total = try count(pattern, in: request.kinds.kinds)
        guard total > request.offset, request.limit != 0 else {
            return SearchResults(
                query: request.text, total: total, hits: [], tokens: pattern.tokens)
        }
        let hits = try rankedHits(pattern, request: request)
        return SearchResults(query: request.text, total: total, hits: hits, tokens: pattern.tokens)
    }

    /// The number of records matching `pattern`.
    func count(_ pattern: SearchPattern, in kinds: [Kind]) throws -> Int {
        try kinds.reduce(0) { total, kind in
            total
                + (try database.cachedStatement(sql: "SELECT count(*) FROM \(kind.indexName)(?1)")
                    .firstRow([pattern.prefixQuery]) { $0.int(at: 0) } ?? 0)
        }
    }

    private func rankedHits(_ pattern: SearchPattern, request: SearchRequest) throws -> [SearchHit]
    {
        let selects = request.kinds.kinds.map {
            rankedSelect(for: $0, tokenCount: pattern.tokens.count)
        }
        let sql =
            selects.joined(separator: "\nUNION ALL\n")
            + "\nORDER BY whole DESC, score DESC, sort_key COLLATE NOCASE, kind, id LIMIT ?\(2 + pattern.tokens.count) OFFSET ?\(3 + pattern.tokens.count)"
        let arguments: StatementArguments =
            [pattern.prefixQuery]
            + pattern.tokens.indices.map { pattern.wholeTokenQuery(at: $0) }
            + [request.limit ?? -1, request.offset]
        var hits: [SearchHit] = []
        try database.cachedStatement(sql: sql).forEachRow(arguments) { row in
            hits.append(Self.hit(from: row))
        }
        return hits
    }

    /// `SELECT kind, id, score, whole, sort_key, extra, field1, field2, field3` for one kind.
    private func rankedSelect(for kind: Kind, tokenCount: Int) -> String {
        let weights = Self.weights(of: kind).map { String($0) }.joined(separator: ", ")
        let whole = (0..<tokenCount)
            .map { "(m.rowid IN (SELECT rowid FROM \(kind.indexName)(?\($0 + 2))))" }
            .joined(separator: " + ")
        return """
            SELECT '\(kind.rawValue)' AS kind, m.rowid AS id, -m.bm25 AS score, \(whole) AS whole,
                   \(Self.sortKey(of: kind, table: "c")) AS sort_key, c.extra, \(Self.fieldColumns(of: kind, table: "c"))
            FROM (SELECT rowid, bm25(\(kind.indexName), \(weights)) AS bm25
                  FROM \(kind.indexName) WHERE \(kind.indexName) MATCH ?1) AS m
            JOIN \(kind.tableName) AS c ON c.id = m.rowid
            """
    }

    private func listEverything(_ request: SearchRequest) throws -> SearchResults {
        let kinds = request.kinds.kinds
        let total = try kinds.reduce(0) { total, kind in
            total + (try database.fetchInt(sql: "SELECT count(*) FROM \(kind.tableName)") ?? 0)
        }
        // Each kind's first rows come in index order (people_by_sort_name, animals_by_name), so
        // the first page never sorts the whole table; ?3 is limit + offset, or -1 for all.
        let selects = kinds.map { kind in
            let sortKey = Self.sortKey(of: kind, table: "c")
            return
                "SELECT * FROM (SELECT '\(kind.rawValue)' AS kind, c.id, 0.0 AS score, 0 AS whole, "
                + "\(sortKey) AS sort_key, c.extra, \(Self.fieldColumns(of: kind, table: "c")) "
                + "FROM \(kind.tableName) AS c ORDER BY (\(sortKey)) COLLATE NOCASE, c.id LIMIT ?3)"
        }
        let sql =
            selects.joined(separator: "\nUNION ALL\n")
            + "\nORDER BY kind DESC, sort_key COLLATE NOCASE, id LIMIT ?1 OFFSET ?2"
        let rows = request.limit.map { $0 + request.offset } ?? -1
        var hits: [SearchHit] = []
        try database.cachedStatement(sql: sql).forEachRow([
            request.limit ?? -1, request.offset, rows,
        ]) {
            row in
            hits.append(Self.hit(from: row))
        }
        return SearchResults(query: request.text, total: total, hits: hits, tokens: [])
    }

    /// People sort by last name then first name, animals by name.
    static func sortKey(of kind: Kind, table: String) -> String {
        switch kind {
        case .people: "\(table).last_name || ' ' || \(table).first_name"
        case .animals: "\(table).name"
        }
    }

    /// The searchable columns padded to three, so that kinds can share one result shape.
    static func fieldColumns(of kind: Kind, table: String) -> String {
        let columns = kind.searchableFields.map { "\(table).\($0)" }
        return (columns + Array(repeating: "''", count: 3 - columns.count)).joined(separator: ", ")
    }

    /// A hit from a row shaped `kind, id, score, whole, sort_key, extra, field1, field2, field3`.
    static func hit(from row: Statement) -> SearchHit {
        SearchHit(
            record: record(from: row), score: row.double(at: 2), wholeTokenMatches: row.int(at: 3))
    }

    /// The record of a row shaped like ``hit(from:)``'s.
    static func record(from row: Statement) -> Record {
        let kind = Kind(rawValue: row.text(at: 0) ?? "") ?? .people
        let values = (0..<Int32(kind.searchableFields.count)).map { row.text(at: 6 + $0) ?? "" }
        return Record(
            kind: kind, id: row.int64(at: 1), searchableValues: values,
            extraFields: ExtraFields.decode(row.text(at: 5)))
    }
}
