package import FTSearchSQLite

/// Finds the parts of a field that a search matched, for highlighting.
///
/// Each word of the field is folded as the index folds it and compared with the query's folded
/// tokens as the search's ``MatchMode`` compares them: the matched prefix (`ann` in "Annabelle"
/// → "Ann"), the whole word (exact; a fuzzy correction: `smiht` → "Smith"), or the infix
/// (substring: `nna` in "Joanna" → "nna"). Folded positions are mapped back to the original
/// letters, so `strasse` highlights all of "Straße" and `zoe` all of "Zoë".
public struct MatchHighlighter {
    let tokenizer: FTS5Tokenizer
    /// The folded query tokens, longest first so the longest match wins.
    let tokens: [String]
    let match: MatchMode
    /// Fuzzy matching's corrected words.
    let corrections: Set<String>

    package init(
        tokenizer: FTS5Tokenizer, tokens: [String], match: MatchMode = .prefix,
        corrections: [String] = []
    ) {
        self.tokenizer = tokenizer
        self.tokens = tokens.sorted { $0.count > $1.count }
        self.match = match
        self.corrections = Set(corrections)
    }

    /// The ranges of `text` matched by the query, in order and not overlapping.
    public func matchedRanges(in text: String) -> [Range<String.Index>] {
        guard !tokens.isEmpty else { return [] }
        let utf8 = text.utf8
        // A record's control characters separate its words (a leading one is no marker).
        return tokenizer.tokens(in: FoldingTokenizer.separatingControls(text)).compactMap { word in
            guard let folded = matchedPart(of: Array(word.text)),
                let start = utf8.index(
                    utf8.startIndex, offsetBy: word.sourceRange.lowerBound, limitedBy: utf8.endIndex
                ),
                let end = utf8.index(
                    utf8.startIndex, offsetBy: word.sourceRange.upperBound, limitedBy: utf8.endIndex
                )
            else { return nil }
            return sourceRange(of: folded, in: text[start..<end])
        }
    }

    /// The matched characters of the folded `word`, by offset; nil when it does not match.
    private func matchedPart(of word: [Character]) -> Range<Int>? {
        for token in tokens.map(Array.init) {
            switch match {
            case .prefix, .fuzzy:
                if word.starts(with: token) { return 0..<token.count }
            case .exact:
                if word == token { return 0..<word.count }
            case .substring:
                if let offset = Self.firstOffset(of: token, in: word) {
                    return offset..<offset + token.count
                }
            }
        }
        if match == .fuzzy && corrections.contains(String(word)) { return 0..<word.count }
        return nil
    }

    private static func firstOffset(of token: [Character], in word: [Character]) -> Int? {
        guard token.count <= word.count else { return nil }
        return (0...(word.count - token.count)).first {
            word[$0..<$0 + token.count].elementsEqual(token)
        }
    }

    /// The part of `source` (one word) whose folded form covers the folded offsets `folded`.
    private func sourceRange(of folded: Range<Int>, in source: Substring) -> Range<String.Index> {
        var position = 0
        var start = source.endIndex
        var end = source.endIndex
        for index in source.indices {
            if position >= folded.lowerBound && start == source.endIndex { start = index }
            if position >= folded.upperBound {
                end = index
                break
            }
            let character = source[index]
            position +=
                character.isASCII
                ? 1 : tokenizer.tokens(in: String(character)).first.map { $0.text.count } ?? 0
        }
        return start..<max(start, end)
    }
}
