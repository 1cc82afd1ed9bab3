/// User text turned into a safe FTS5 query (https://sqlite.org/fts5.html#full_text_query_syntax).
///
/// The text is split into tokens by the index's own tokenizer, so query and index always agree
/// on what a token is (letters and digits; case and diacritics folded). Each token becomes a
/// quoted string — so `"`, `*`, `-`, `:`, `^`, parentheses and `AND`/`OR`/`NOT`/`NEAR` are
/// never syntax — with the prefix `*` outside the quotes.
///
/// ```swift
/// SearchPattern(matchingAllPrefixesIn: "O'Brien AND", tokenizer: t)?.prefixQuery
/// // "o"* "brien"* "and"*
/// ```
public struct SearchPattern: Equatable, Sendable {
    /// The distinct folded tokens of the text, in order of first appearance (`ann ann` is `ann`).
    public let tokens: [String]

    /// Creates a pattern that matches records where every token of `text` is a prefix of some
    /// token of a searchable field; `nil` when `text` has no letters or digits.
    public init?(matchingAllPrefixesIn text: String, tokenizer: FTS5Tokenizer) {
        self.init(tokens: tokenizer.tokens(in: text).map(\.text))
    }

    /// Creates a pattern from already folded tokens; `nil` when there are none.
    public init?(tokens: [String]) {
        guard !tokens.isEmpty else { return nil }
        var seen = Set<String>()
        self.tokens = tokens.filter { seen.insert($0).inserted }
    }

    /// Every token as a prefix, all required: `"ann"* "mul"*`.
    public var prefixQuery: String {
        tokens.map { Self.quoted($0) + "*" }.joined(separator: " ")
    }

    /// One token as a whole word: `"ann"`.
    public func wholeTokenQuery(at index: Int) -> String {
        Self.quoted(tokens[index])
    }

    /// The FTS5 string literal for `token`, with `"` doubled.
    static func quoted(_ token: String) -> String {
        "\"" + token.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension String {
    /// The string with every `target` character replaced by `replacement`.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
