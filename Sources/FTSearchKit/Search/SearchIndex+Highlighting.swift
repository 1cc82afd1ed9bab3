import FTSearchEngine

extension SearchIndex {
    /// A highlighter for what `results` matched.
    public func highlighter(for results: SearchResults) throws -> MatchHighlighter {
        MatchHighlighter(
            tokenizer: try tokenizer, tokens: results.tokens, match: results.match,
            corrections: results.corrections)
    }
}
