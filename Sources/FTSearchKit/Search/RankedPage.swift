/// The fast plan for one page of ranked results: the same order as
/// ``QueryEngine/referenceSearch(_:request:)``, without ranking every match.
///
/// Ranking is what costs: `bm25()` reads each matching row's size and the content table gives
/// each its sort key, about 1 µs a row, and a one-letter prefix matches hundreds of thousands.
/// Here one pass over the matches (see ``FTS5RankCollector``) counts them, finds each row's
/// whole-token count from the hits, and reads the size of only those rows whose best possible
/// score can still reach the page; then only the rows at or above the page's last
/// (whole-token count, score) — ties included — are joined to the content table and ordered by
/// sort key, kind and id. The order and the total are exactly the reference plan's
/// (`FastRankingTests` compares them on generated data).
struct RankedPage {
    let database: Database
    let pattern: SearchPattern
    let request: SearchRequest

    private var limit: Int { request.limit ?? 0 }
    private var capacity: Int { request.offset + limit }

    func results() throws -> SearchResults {
        var total = 0
        var ranked: [(kind: Kind, rowid: Int64, whole: Int, score: Double)] = []
        for kind in request.kinds.kinds {
            let collector = FTS5RankCollector(tokenCount: pattern.tokens.count,
                                              weights: QueryEngine.weights(of: kind), capacity: capacity,
                                              database: database, sizeTable: "\(kind.indexName)_docsize")
            let statement = try rankStatement(for: kind)
            try statement.bind(rankQuery, at: 1)
            try statement.bind(collector, at: 2)
            defer { statement.reset() }
            defer { collector.closeSizeReader() }
            while try statement.step() {}
            total += collector.total
            ranked += try collector.finish().map { (kind, $0.rowid, $0.whole, $0.score) }
        }
        guard total > request.offset, !ranked.isEmpty else {
            return SearchResults(query: request.text, total: total, hits: [], tokens: pattern.tokens)
        }
        // The groups of equal (whole, score), best first; a page ends inside at most one.
        ranked.sort { ($0.whole, $0.score) > ($1.whole, $1.score) }
        var groups: [(whole: Int, score: Double)] = []
        var members: [Kind: [String]] = [:]
        for (position, row) in ranked.enumerated() {
            if groups.last.map({ $0 != (row.whole, row.score) }) ?? true {
                guard position < capacity else { break }
                groups.append((row.whole, row.score))
            }
            members[row.kind, default: []].append("[\(row.rowid),\(groups.count - 1)]")
        }
        let kinds = request.kinds.kinds.filter { members[$0] != nil }
        var arguments: StatementArguments = kinds.map { "[" + members[$0, default: []].joined(separator: ",") + "]" }
        arguments += [limit, request.offset]
        var hits: [SearchHit] = []
        try database.cachedStatement(sql: pageSQL(for: kinds)).forEachRow(arguments) { row in
            let group = groups[row.int(at: 2)]
            hits.append(SearchHit(record: QueryEngine.record(from: row), score: group.score,
                                  wholeTokenMatches: group.whole))
        }
        return SearchResults(query: request.text, total: total, hits: hits, tokens: pattern.tokens)
    }

    /// Prefix phrases first, then whole-token phrases: `("ann"* AND "mül"*) OR "ann" OR "mül"`.
    /// The rows it matches beyond the prefix query's are skipped by the collector.
    private var rankQuery: String {
        let wholeTokens = pattern.tokens.indices.map { pattern.wholeTokenQuery(at: $0) }
        return (["(" + pattern.prefixQuery + ")"] + wholeTokens).joined(separator: " OR ")
    }

    private func rankStatement(for kind: Kind) throws -> Statement {
        let sql = "SELECT 1 FROM \(kind.indexName) WHERE \(kind.indexName) MATCH ?1 "
            + "AND \(FTS5RankFunction.name)(\(kind.indexName), ?2)"
        do {
            return try database.cachedStatement(sql: sql)
        } catch {
            // The auxiliary function is registered once per connection, on first use.
            try FTS5RankFunction.register(on: database)
            return try database.cachedStatement(sql: sql)
        }
    }

    /// The page's rows, from `[[rowid, group], ...]` per kind; shaped as ``QueryEngine/hit(from:)``
    /// reads them, with the group in place of the score.
    private func pageSQL(for kinds: [Kind]) -> String {
        let selects = kinds.enumerated().map { offset, kind in
            """
            SELECT '\(kind.rawValue)' AS kind, c.id AS id, j.value ->> 1 AS grp, 0 AS whole,
                   \(QueryEngine.sortKey(of: kind, table: "c")) AS sort_key, c.extra,
                   \(QueryEngine.fieldColumns(of: kind, table: "c"))
            FROM json_each(?\(offset + 1)) AS j JOIN \(kind.tableName) AS c ON c.id = j.value ->> 0
            """
        }
        return selects.joined(separator: "\nUNION ALL\n")
            + "\nORDER BY grp, sort_key COLLATE NOCASE, kind, id LIMIT ?\(kinds.count + 1) OFFSET ?\(kinds.count + 2)"
    }
}
