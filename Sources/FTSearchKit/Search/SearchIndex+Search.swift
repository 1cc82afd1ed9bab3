@_spi(Benchmarking) import FTSearchEngine

/// Searching: ranked matches of a text, in any match mode.
extension SearchIndex {
    /// Runs a ranked prefix search.
    ///
    /// ```swift
    /// let results = try index.search(SearchRequest(text: "ann mül", limit: 20))
    /// results.total        // every match, whatever the limit
    /// results.hits.first?.record.displayName  // "Anna Müller"
    /// ```
    ///
    /// The first substring search of a kind builds its substring index (see
    /// ``prepareIndexes(for:onProgress:)``).
    public func search(_ request: SearchRequest) throws -> SearchResults {
        try prepareIndexes(for: request)
        return try queryEngine(helper: { [unowned self] in openRankingHelper }).search(request)
    }

    /// The engine that searches this index, with `helper` giving its second connection.
    func queryEngine(helper: @escaping () -> RankingHelper?) throws -> QueryEngine {
        let memory = Ablation.uses(.memory) ? memory : nil
        var engine = QueryEngine(
            database: database, tokenizer: try tokenizer, helper: helper, memory: memory,
            resultCache: resultCacheMinimumCost.map {
                ResultCache(database: database, minimumCost: $0, memory: memory)
            })
        engine.readsDoclists = readsDoclists
        engine.fieldTables = memory?.fieldTables ?? fieldTables
        if Ablation.uses(.variantGates) {
            engine.variantGates = memory?.variantGates ?? variantGates
        }
        return engine
    }
}
