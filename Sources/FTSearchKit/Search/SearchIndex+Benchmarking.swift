extension SearchIndex {
    /// Runs `request` with the reference plan (count every match, rank every match with
    /// `bm25()` and a subquery per ranking signal), the baseline that `scripts/bench` and
    /// `FastRankingTests` hold the default plan to.
    @_spi(Benchmarking)
    public func referenceSearch(_ request: SearchRequest) throws -> SearchResults {
        try QueryEngine(database: database, tokenizer: try tokenizer).referenceSearch(request)
    }
}
