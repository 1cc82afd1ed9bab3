import FTSearchSQLite

/// Completes a typed prefix from the search history and the index's vocabulary.
///
/// History entries whose key starts with the folded prefix come first, then entries with a later
/// word starting with it (`mül` suggests "anna müller"). When history gives fewer than the limit,
/// words of the indexed fields that start with the prefix's last word fill up the list, the
/// words held by the most records first, each spelled as the records write it (`νικ` suggests
/// Νίκος, not the index's folded `νικοσ`).
struct Suggester {
    /// The records' database, for the index's words.
    let database: Database
    /// The history's own database (see ``HistoryFile``).
    let historyDatabase: Database
    let tokenizer: FTS5Tokenizer
    let clock: @Sendable () -> Timestamp

    func suggestions(forPrefix prefix: String, options: SuggestionOptions) throws -> [Suggestion] {
        let key = HistoryKey.normalizePrefix(prefix, tokenizer: tokenizer)
        var suggestions: [Suggestion] = []
        if options.sources.contains(.history) {
            suggestions = try historySuggestions(forKey: key, options: options)
        }
        if options.sources.contains(.index) && suggestions.count < options.limit {
            let known = Set(suggestions.map { HistoryKey.normalize($0.text, tokenizer: tokenizer) })
            suggestions += try vocabularySuggestions(
                forPrefix: prefix, limit: options.limit + suggestions.count,
                keeping: options.limit - suggestions.count, kinds: options.kinds
            ) { !known.contains($0) }
        }
        return suggestions
    }

    /// Past searches whose key starts with `key`, then (when they are fewer than the limit)
    /// those with a later word starting with it, each group in the order asked for.
    ///
    /// The first group is a range of the history's unique key index, so a common prefix reads
    /// only its own entries; only a prefix that few searches start with scans the history for
    /// later words. The result is the one query
    /// `WHERE instr(' ' || key, ' ' || ?1) > 0 ORDER BY substr(key, 1, length(?1)) <> ?1, ...`
    /// gives.
    private func historySuggestions(forKey key: String, options: SuggestionOptions) throws
        -> [Suggestion]
    {
        var suggestions: [Suggestion] = []
        let arguments: StatementArguments = [
            key, options.kinds.name, options.includesEmptyResults, clock().description,
            options.limit,
        ]
        for group in [HistoryGroup.startsWithKey, .laterWordStartsWithKey] {
            guard suggestions.count < options.limit, group == .startsWithKey || !key.isEmpty
            else { break }
            try historyDatabase.cachedStatement(sql: historySQL(group, order: options.order))
                .forEachRow(arguments) { row in
                    guard suggestions.count < options.limit else { return }
                    suggestions.append(
                        Suggestion(
                            text: row.text(at: 0) ?? "", source: .history, count: row.int(at: 1),
                            lastUsed: row.text(at: 2).flatMap { Timestamp(iso8601: $0) },
                            resultCount: row.int(at: 3)))
                }
        }
        return suggestions
    }

    /// Which past searches a history query reads.
    private enum HistoryGroup {
        /// Keys starting with the prefix: a range of the key index.
        case startsWithKey
        /// Keys with a later word starting with the prefix, but not its first.
        case laterWordStartsWithKey
    }

    /// Parameters: ?1 key prefix, ?2 kinds, ?3 include empty, ?4 now, ?5 limit.
    private func historySQL(_ group: HistoryGroup, order: SuggestionOptions.Order) -> String {
        let keys =
            switch group {
            case .startsWithKey: "key >= ?1 AND key < ?1 || char(1114111)"
            case .laterWordStartsWithKey:
                "instr(key, ' ' || ?1) > 0 AND substr(key, 1, length(?1)) <> ?1"
            }
        return """
            SELECT text, use_count, last_used, result_count FROM history
            WHERE \(keys)
              AND (?2 = 'all' OR kind = ?2 OR kind = 'all')
              AND (?3 OR result_count > 0)
            ORDER BY \(Self.ordering(order))
            LIMIT ?5
            """
    }

    /// The one query history suggestions are specified by: the entries with a word starting
    /// with the key `?1`, those whose first word does first, then `order`. The two-part plan of
    /// ``historySQL(_:order:)`` must give exactly its rows (`HistorySuggestionQueryTests`), and
    /// `scripts/bench` gives it to the sqlite3 CLI as the floor of `suggest`.
    static func referenceSQL(order: SuggestionOptions.Order) -> String {
        """
        SELECT text, use_count, last_used, result_count FROM history
        WHERE instr(' ' || key, ' ' || ?1) > 0
          AND (?2 = 'all' OR kind = ?2 OR kind = 'all')
          AND (?3 OR result_count > 0)
        ORDER BY substr(key, 1, length(?1)) <> ?1, \(ordering(order))
        LIMIT ?5
        """
    }

    /// The `ORDER BY` terms of `order` (frecency reads the time now from `?4`).
    private static func ordering(_ order: SuggestionOptions.Order) -> String {
        switch order {
        case .frequency: "use_count DESC, last_used DESC, text"
        case .recency: "last_used DESC, use_count DESC, text"
        case .frecency:
            """
            use_count * (SELECT CASE
                WHEN age <= 1.0 / 24 THEN 4.0 WHEN age <= 1 THEN 2.0 WHEN age <= 7 THEN 0.5 ELSE 0.25 END
                FROM (SELECT julianday(?4) - julianday(last_used) AS age)) DESC, last_used DESC, text
            """
        }
    }

    /// The first `kept` of the `limit` index words held by the most records that start with
    /// the prefix's last token, after the prefix's text before it, leaving out those whose
    /// folded text (`lead + word`) `isNew` refuses; only those kept are spelled as the records
    /// write them (see ``spelling(of:holders:)``, which reads records, only of the kinds that
    /// hold the word: the vocabulary counts them by kind).
    private func vocabularySuggestions(
        forPrefix prefix: String, limit: Int, keeping kept: Int, kinds: Set<Kind>,
        isNew: (String) -> Bool
    ) throws -> [Suggestion] {
        // Control characters separate words, as in a search; the text before the last word is
        // kept as typed (reading them as spaces keeps every byte's place).
        let tokens = tokenizer.tokens(in: FoldingTokenizer.separatingControls(prefix))
        guard let last = tokens.last, prefix.last?.isWhitespace != true else { return [] }
        let lead = tokens.dropLast().map { $0.text + " " }.joined()
        let typedLead = String(
            decoding: Array(prefix.utf8)[..<last.sourceRange.lowerBound], as: UTF8.self)
        let kinds = kinds.inOrder
        let vocabularies = kinds.enumerated().map { number, kind in
            "SELECT term, doc, \(number) AS kind FROM \(kind.tableName)_vocabulary"
                + " WHERE term >= ?1 AND term < ?1 || char(1114111)"
        }
        let byKind = kinds.indices.map { "sum(doc * (kind = \($0)))" }
        let sql =
            "SELECT term, sum(doc) AS records, \(byKind.joined(separator: ", "))"
            + " FROM (\(vocabularies.joined(separator: " UNION ALL ")))"
            + " GROUP BY term ORDER BY records DESC, term LIMIT ?2"
        var words: [(term: String, records: Int, holders: [(kind: Kind, records: Int)])] = []
        try database.cachedStatement(sql: sql).forEachRow([last.text, limit]) { row in
            words.append(
                (
                    row.text(at: 0) ?? "", row.int(at: 1),
                    kinds.enumerated().map { ($1, row.int(at: Int32($0 + 2))) }
                ))
        }
        return try words.filter { isNew(lead + $0.term) }.prefix(kept).map { word in
            Suggestion(
                text: typedLead + (try spelling(of: word.term, holders: word.holders)),
                source: .index, count: word.records, lastUsed: nil)
        }
    }
}
