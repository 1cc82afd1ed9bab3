extension SearchIndex {
    /// Runs `request` with the reference plan (count every match, rank every match with
    /// `bm25()` and a subquery per ranking signal), the baseline that `scripts/bench` and
    /// `FastRankingTests` hold the default plan to.
    @_spi(Benchmarking)
    public func referenceSearch(_ request: SearchRequest) throws -> SearchResults {
        try QueryEngine(database: database, tokenizer: try tokenizer).referenceSearch(request)
    }
}

extension SearchIndex {
    /// Whether searches keep their expensive rankings for the next identical search (see
    /// ``ResultCache``): on by default; `scripts/bench` also times searches without it.
    @_spi(Benchmarking)
    public var keepsExpensiveRankings: Bool {
        get { resultCacheMinimumCost != nil }
        set { resultCacheMinimumCost = newValue ? ResultCache.defaultMinimumCost : nil }
    }
}

extension SearchIndex {
    /// The did-you-mean suggestion for `request` alone, as a prefix search that found nothing
    /// would add it: the part of such a search that `scripts/bench` times.
    @_spi(Benchmarking)
    public func didYouMean(for request: SearchRequest) throws -> String? {
        let engine = QueryEngine(database: database, tokenizer: try tokenizer)
        let tokens = try tokenizer.tokens(in: request.text).map(\.text)
        return try Correction(database: database, request: request)
            .suggestion(for: tokens) { try engine.count(of: $0) }
    }

    /// Rebuilds the substring (trigram) indexes from the content tables and returns how long it
    /// took in seconds: what building them at import costs.
    @_spi(Benchmarking)
    public func rebuildSubstringIndexes() throws -> Double {
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            try database.inTransaction(.immediate) {
                for kind in Kind.allCases {
                    try database.execute(
                        sql: IndexSync(kind: kind, indexes: [.substrings(of: kind)]).rebuildSQL)
                }
            }
        }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
