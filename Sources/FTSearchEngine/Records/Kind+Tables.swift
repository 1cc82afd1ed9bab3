extension Kind {
    /// The content table's name.
    package var tableName: String { rawValue }

    /// The FTS5 index's name.
    package var indexName: String { "\(rawValue)_fts" }

    /// The FTS5 index of folded trigrams, for substring matching.
    var substringIndexName: String { "\(rawValue)_substring" }
}
