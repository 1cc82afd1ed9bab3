/// One FTS5 index over a kind's searchable columns: its table name and tokenizer options.
///
/// A kind can have two (see ``IndexSync``): the word index, which serves prefix, exact and fuzzy
/// matching and always exists, and the substring index of folded trigrams, which serves
/// substring matching and is built by the first substring search (see
/// ``SearchIndex/prepareIndexes(for:of:onProgress:)``).
package struct FullTextIndex: Sendable, Equatable {
    let name: String
    /// The `tokenize=` and `prefix=` options of the table.
    let options: String
    /// What the index is, for people: "substring index".
    package let description: String

    /// The tables FTS5 keeps this external-content index in: segments, their b-tree, each
    /// row's token counts, and settings.
    package var shadowTables: [String] {
        ["_data", "_idx", "_docsize", "_config"].map { name + $0 }
    }

    /// The table of its rows' sizes, one byte a row (see ``RowSizes``).
    package var sizesTable: String { name + "_sizes" }

    /// The word index: ftsearch's folding tokenizer, with prefix indexes on 1, 2 and 3
    /// characters so that short prefixes are fast.
    static func words(of kind: Kind) -> FullTextIndex {
        FullTextIndex(
            name: kind.indexName,
            options: "tokenize='\(FoldingTokenizer.name)', prefix='1 2 3'",
            description: "word index")
    }

    /// The substring index: the folded words' trigrams (see ``FoldingTokenizer``), with prefix
    /// indexes on 1 and 2 characters, so that a 1- or 2-letter substring (a trigram prefix,
    /// `"a"*`) reads one doclist instead of merging those of every trigram it starts.
    package static func substrings(of kind: Kind) -> FullTextIndex {
        FullTextIndex(
            name: kind.substringIndexName,
            options: "tokenize='\(FoldingTokenizer.trigramName)', prefix='1 2'",
            description: "substring index")
    }

    /// Every index `kind` can have, in the order they are kept in step: words, then substrings.
    static func all(of kind: Kind) -> [FullTextIndex] {
        [.words(of: kind), .substrings(of: kind)]
    }
}
