import FTSearchSQLite

extension SearchIndex {
    /// The words of `text`, folded as a search folds the words of a query and of a record
    /// (case, accents, and letters such as ß, ø and ł), in order.
    ///
    /// Two texts hold the same word where their folded words are equal, so a caller can check
    /// what a search cannot express, such as a phrase: words that follow one another.
    ///
    /// ```swift
    /// let index = try SearchIndex(path: "people.sqlite")
    /// print(try index.foldedWords(in: "Zoë Ødegaard"))  // ["zoe", "odegaard"]
    /// ```
    ///
    /// - Throws: `SQLiteError` when the database's tokenizer cannot be loaded.
    public func foldedWords(in text: String) throws -> [String] {
        try tokenizer.tokens(in: FoldingTokenizer.separatingControls(text)).map(\.text)
    }
}
