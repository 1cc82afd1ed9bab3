/// The tokens of a search, as the index's own tokenizer splits and folds them
/// (https://sqlite.org/fts5.html#full_text_query_syntax): letters and digits, case and
/// diacritics folded, each distinct token once. ``quoted(_:)`` is the one way a token becomes
/// FTS5 query text (a quoted string, so `"`, `*`, `-`, `:`, `^`, parentheses and
/// `AND`/`OR`/`NOT`/`NEAR` are never syntax); ``MatchPlan`` builds every phrase with it.
package struct SearchPattern: Equatable, Sendable {
    /// The distinct folded tokens of the text, in order of first appearance (`ann ann` is `ann`).
    let tokens: [String]

    /// Creates a pattern from already folded tokens; `nil` when there are none.
    init?(tokens: [String]) {
        guard !tokens.isEmpty else { return nil }
        // A handful of tokens: a linear look back costs less than hashing each.
        var distinct: [String] = []
        for token in tokens where !distinct.contains(token) { distinct.append(token) }
        self.tokens = distinct
    }

    /// The FTS5 string literal for `token`, with `"` doubled: `a"b` is `"a""b"`.
    package static func quoted(_ token: String) -> String {
        // On UTF-8 bytes: `"` is one byte, never part of another character's. Every phrase of
        // every plan is quoted, so this is done once per search for each of them.
        var bytes: [UInt8] = [0x22]
        bytes.reserveCapacity(token.utf8.count + 2)
        for byte in token.utf8 {
            bytes.append(byte)
            if byte == 0x22 { bytes.append(0x22) }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }
}
