/// The values of a field among the matches of a search: a facet panel's, and Meilisearch's
/// facet search.
extension SearchIndex {
    /// The values of `request.field` among the matches of `request.search` (its text and
    /// filter), most frequent first, those starting with ``FacetSearchRequest/valuePrefix``
    /// (folded as search folds it) only.
    ///
    /// ```swift
    /// let companies = try index.facetValues(
    ///     FacetSearchRequest(field: "company", valuePrefix: "ac", search: SearchRequest(text: "ann")))
    /// companies.first  // FacetValue(value: "Acme", count: 12)
    /// ```
    public func facetValues(_ request: FacetSearchRequest) throws -> [FacetValue] {
        var search = request.search
        search.facets = [request.field]
        search.sort = []
        (search.offset, search.limit) = (0, 0)
        try prepareIndexes(for: search)
        let engine = try queryEngine(helper: { [unowned self] in openRankingHelper })
        return try engine.facetValues(
            of: request.field, prefix: request.valuePrefix, limit: request.limit, among: search)
    }
}

extension SearchIndexPool {
    /// ``SearchIndex/facetValues(_:)`` on a reader connection.
    public func facetValues(_ request: FacetSearchRequest) async throws -> [FacetValue] {
        let lacksIndexes = try await read {
            try $0.lacksIndexes(for: request.search, replacingOutdated: false)
        }
        if lacksIndexes {
            try await write { try $0.prepareIndexes(for: request.search) }
        }
        return try await read { try $0.facetValues(request) }
    }
}

extension QueryEngine {
    /// The values of `field` among the matches of `request` that start with `prefix`.
    func facetValues(of field: String, prefix: String, limit: Int, among request: SearchRequest)
        throws -> [FacetValue]
    {
        var folding = TextFolding(tokenizer: tokenizer)
        let folded = prefix.allSatisfy(\.isWhitespace) ? nil : folding.fold(prefix)
        let (_, tables, matches) = try structuredResults(request)
        let parts = tables.map { ($0, matches[$0.kind] ?? RowSet(capacity: 0)) }
        return FacetCounts.count(field, over: parts, prefix: folded, limit: limit).values
    }
}
