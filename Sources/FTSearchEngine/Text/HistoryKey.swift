package import FTSearchSQLite

/// The normalized form under which searches are counted as one history entry.
///
/// Tokens are folded exactly as the index folds them (case and diacritics), other characters are
/// kept, white space is trimmed and collapsed: `"  Zoë   O'Brien "` → `"zoe o'brien"`.
package enum HistoryKey {
    package static func normalize(_ text: String, tokenizer: FTS5Tokenizer) -> String {
        let utf8 = Array(text.utf8)
        var folded: [UInt8] = []
        folded.reserveCapacity(utf8.count)
        var position = 0
        for token in tokenizer.tokens(in: text) {
            folded += utf8[position..<token.sourceRange.lowerBound]
            folded += token.text.utf8
            position = token.sourceRange.upperBound
        }
        folded += utf8[position...]
        return String(decoding: folded, as: UTF8.self)
            .split(whereSeparator: \.isWhitespace)
            .joined(separator: " ")
    }

    /// The key a typed prefix must start with: normalized, keeping one trailing space when the
    /// prefix ends in white space (so `"anna "` completes `anna müller` but not `annabel`).
    package static func normalizePrefix(_ prefix: String, tokenizer: FTS5Tokenizer) -> String {
        let key = normalize(prefix, tokenizer: tokenizer)
        guard !key.isEmpty, prefix.last?.isWhitespace == true else { return key }
        return key + " "
    }
}
