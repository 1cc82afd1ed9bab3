/// One FTS5 index over a kind's searchable columns: its table name and tokenizer options.
///
/// Each kind has two (see ``IndexSync``): the word index, which serves prefix, exact and fuzzy
/// matching, and the substring index of folded trigrams, which serves substring matching.
struct FullTextIndex: Sendable {
    let name: String
    /// The `tokenize=` and `prefix=` options of the table.
    let options: String

    /// The word index: ftsearch's folding tokenizer, with prefix indexes on 1, 2 and 3
    /// characters so that short prefixes are fast.
    static func words(of kind: Kind) -> FullTextIndex {
        FullTextIndex(
            name: kind.indexName,
            options: "tokenize='\(FoldingTokenizer.name)', prefix='1 2 3'")
    }

    /// The substring index: the folded words' trigrams (see ``FoldingTokenizer``).
    static func substrings(of kind: Kind) -> FullTextIndex {
        FullTextIndex(
            name: kind.substringIndexName, options: "tokenize='\(FoldingTokenizer.trigramName)'")
    }

    /// The word index of schema versions 1 to 3, before ftsearch had its own tokenizer.
    static func unicode61Words(of kind: Kind) -> FullTextIndex {
        FullTextIndex(
            name: kind.indexName,
            options: "tokenize='unicode61 remove_diacritics 2', prefix='1 2 3'")
    }
}
