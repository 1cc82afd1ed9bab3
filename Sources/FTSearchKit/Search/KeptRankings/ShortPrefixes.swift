import FTSearchSQLite

extension SearchIndex {
    /// The 1- and 2-letter prefixes a search bar's first keystrokes type, most common first:
    /// every first letter, then the first two letters, of the words in up to `sampling`
    /// records of each kind, as the index folds them (`Ø` and `o` alike), the most frequent
    /// `limit` in all.
    func shortPrefixes(of kinds: Set<Kind>, sampling: Int = 20_000, limit: Int = 600) throws
        -> [String]
    {
        let tokenizer = try self.tokenizer
        var counts: [String: Int] = [:]
        for kind in kinds.inOrder {
            let fields = kind.searchableFields.joined(separator: ", ")
            try database.cachedStatement(
                sql: "SELECT \(fields) FROM \(kind.tableName) LIMIT ?1"
            ).forEachRow([sampling]) { row in
                for column in 0..<Int32(kind.searchableFields.count) {
                    guard let text = row.text(at: column) else { continue }
                    for token in tokenizer.tokens(in: text) {
                        let letters = token.text.unicodeScalars
                        guard let first = letters.first, first.properties.isAlphabetic else {
                            continue
                        }
                        counts[String(first), default: 0] += 1
                        if letters.count > 1 {
                            counts[
                                String(String.UnicodeScalarView(letters.prefix(2))), default: 0] +=
                                1
                        }
                    }
                }
            }
        }
        // One letter first (the most expensive searches), then by how often they start a word.
        return counts.sorted {
            let (a, b) = ($0.key.unicodeScalars.count, $1.key.unicodeScalars.count)
            return a != b ? a < b : $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
        }.prefix(limit).map(\.key)
    }
}

extension SearchIndexPool {
    /// Searches the short prefixes a search bar's first keystrokes type (every first letter of
    /// the records' words, and their most common first two letters), so that their rankings
    /// are kept (see ``SearchIndex/search(_:)``) before anyone types them, then reads the
    /// vocabularies a did-you-mean needs: a server calls it in the background as it starts. Rankings kept before are not ranked again, and are
    /// brought up to date after writes. Returns how many prefixes it searched; cancelling the
    /// task stops it between two.
    ///
    /// ```swift
    /// let pool = try SearchIndexPool(path: "people.sqlite")
    /// let searched = try await pool.keepShortPrefixRankings()
    /// print("\(searched) short prefixes ranked")
    /// ```
    ///
    /// - Parameters:
    ///   - kinds: The kinds the searches look in, as the search bar's.
    ///   - limit: The page size the search bar asks for.
    public func keepShortPrefixRankings(kinds: Set<Kind> = .all, limit: Int = 20) async throws
        -> Int
    {
        let prefixes = try await read { try $0.shortPrefixes(of: kinds) }
        for prefix in prefixes {
            try Task.checkCancellation()
            _ = try await search(SearchRequest(text: prefix, kinds: kinds, limit: limit))
        }
        // And the vocabularies a did-you-mean reads, when a prefix finds nothing (at 1M, reading
        // one the first time takes a third of a second).
        try Task.checkCancellation()
        try await read { index in
            for kind in kinds.inOrder {
                _ = try Vocabulary.load(kind, from: index.database, memory: index.memory)
            }
        }
        return prefixes.count
    }
}
