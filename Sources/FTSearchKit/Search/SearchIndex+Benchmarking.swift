extension SearchIndex {
    /// Runs `request` with the reference plan (count every match, rank every match with
    /// `bm25()`), the baseline that `scripts/bench` times the default plan against.
    @_spi(Benchmarking)
    public func referenceSearch(_ request: SearchRequest) throws -> SearchResults {
        let engine = QueryEngine(database: database, tokenizer: try tokenizer)
        guard !request.listsEverything,
            let pattern = SearchPattern(
                matchingAllPrefixesIn: request.text, tokenizer: try tokenizer)
        else { return try engine.search(request) }
        return try engine.referenceSearch(pattern, request: request)
    }
}
