/// The search history and the suggestions drawn from it.
extension SearchIndex {
    /// The search history of this database.
    public var history: SearchHistory {
        get throws {
            SearchHistory(
                database: try historyDatabase, databasePath: path, tokenizer: try tokenizer,
                clock: clock,
                readOnlyReason: readOnlyReason)
        }
    }

    /// Suggestions for a typed prefix, from history and the index's words.
    ///
    /// ```swift
    /// try index.suggestions(forPrefix: "an")  // ["anna müller", "annex", ...]
    /// ```
    public func suggestions(
        forPrefix prefix: String, options: SuggestionOptions = SuggestionOptions()
    ) throws
        -> [Suggestion]
    {
        try Suggester(
            database: database, historyDatabase: historyDatabase, tokenizer: tokenizer,
            clock: clock
        )
        .suggestions(forPrefix: prefix, options: options)
    }
}
