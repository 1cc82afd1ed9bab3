/// Finds the parts of a field that a search matched, for highlighting.
///
/// A word of the field is matched when one of the query's folded tokens is a prefix of its
/// folded form; the highlighted part is as many characters of the original word as the token
/// has (`ann` in "Annabelle" → "Ann", `zoe` in "Zoë" → "Zoë").
public struct MatchHighlighter {
    let tokenizer: FTS5Tokenizer
    /// The folded query tokens, longest first so the longest prefix wins.
    let tokens: [String]

    init(tokenizer: FTS5Tokenizer, tokens: [String]) {
        self.tokenizer = tokenizer
        self.tokens = tokens.sorted { $0.count > $1.count }
    }

    /// The ranges of `text` matched by the query, in order and not overlapping.
    public func matchedRanges(in text: String) -> [Range<String.Index>] {
        guard !tokens.isEmpty else { return [] }
        let utf8 = text.utf8
        return tokenizer.tokens(in: text).compactMap { word in
            guard let token = tokens.first(where: { word.text.hasPrefix($0) }),
                let start = utf8.index(
                    utf8.startIndex, offsetBy: word.sourceRange.lowerBound, limitedBy: utf8.endIndex
                ),
                let end = utf8.index(
                    utf8.startIndex, offsetBy: word.sourceRange.upperBound, limitedBy: utf8.endIndex
                )
            else { return nil }
            let source = text[start..<end]
            let matchedEnd =
                source.index(source.startIndex, offsetBy: token.count, limitedBy: source.endIndex)
                ?? source.endIndex
            return start..<matchedEnd
        }
    }
}

extension SearchIndex {
    /// A highlighter for the tokens of `results`.
    public func highlighter(for results: SearchResults) throws -> MatchHighlighter {
        MatchHighlighter(tokenizer: try tokenizer, tokens: results.tokens)
    }
}
