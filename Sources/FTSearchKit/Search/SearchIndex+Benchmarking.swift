import FTSearchSQLite
extension SearchIndex {
    /// Runs `request` with the reference plan (count every match, rank every match with
    /// `bm25()` and a subquery per ranking signal), the baseline that `scripts/bench` and
    /// `FastRankingTests` hold the default plan to.
    @_spi(Benchmarking)
    public func referenceSearch(_ request: SearchRequest) throws -> SearchResults {
        try prepareIndexes(for: request)
        return try QueryEngine(database: database, tokenizer: try tokenizer).referenceSearch(
            request)
    }
}

extension SearchIndex {
    /// Whether searches keep their expensive rankings for the next identical search (see
    /// ``ResultCache``): on by default; `scripts/bench` also times searches without it.
    @_spi(Benchmarking)
    public var keepsExpensiveRankings: Bool {
        get { resultCacheMinimumCost != nil }
        set { resultCacheMinimumCost = newValue ? ResultCache.defaultMinimumCost : nil }
    }
}

extension SearchIndex {
    /// Drops (false) or restores (true) the triggers that log single-record writes for kept
    /// rankings (see ``SearchChanges``), so that `ftsearch-bench` can time writes as they were
    /// before the log. Both note a bulk write of every kind, as ``BulkWriter`` does: rankings
    /// kept before are ranked again, since the writes without the log are not in it.
    @_spi(Benchmarking)
    public func logChanges(_ logs: Bool) throws {
        try database.inTransaction {
            for kind in Kind.allCases {
                try database.execute(
                    sql: logs
                        ? SearchChanges.createTriggersSQL(of: kind)
                        : SearchChanges.dropTriggersSQL(of: kind))
                try SearchChanges.noteBulkWrite(of: kind, in: database)
            }
        }
    }
}

extension SearchIndex {
    /// Whether first searches rank from FTS5's doclists where the reader serves the plan (see
    /// ``DoclistRanking``): on by default; `ftsearch-bench` also times FTS5's cursor.
    @_spi(Benchmarking)
    public var ranksFromDoclists: Bool {
        get { readsDoclists }
        set { readsDoclists = newValue }
    }
}

extension SearchIndex {
    /// The did-you-mean suggestion for `request` alone, as a prefix search that found nothing
    /// would add it: the part of such a search that `scripts/bench` times.
    @_spi(Benchmarking)
    public func didYouMean(for request: SearchRequest) throws -> String? {
        let engine = QueryEngine(database: database, tokenizer: try tokenizer)
        let tokens = try tokenizer.tokens(in: request.text).map(\.text)
        return try Correction(database: database, request: request)
            .suggestion(for: tokens) { try engine.count(of: $0) }
    }

    /// Drops the substring (trigram) indexes, then builds them as the first substring search
    /// does, and returns how long building took in seconds: the one-time cost of the first
    /// substring search.
    @_spi(Benchmarking)
    public func rebuildSubstringIndexes() throws -> Double {
        try database.inTransaction(.immediate) {
            for kind in Kind.allCases {
                try IndexBuilder(database: database).drop(
                    IndexBuilder.Target(kind: kind, index: .substrings(of: kind)))
            }
        }
        let clock = ContinuousClock()
        let elapsed = try clock.measure { try prepareIndexes(for: .substring, of: .all) }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

extension SearchIndex {
    /// Drops every kept ranking, so that the next searches rank as the first search after a
    /// change does (`scripts/bench` times the interactive screen from there).
    @_spi(Benchmarking)
    public func forgetKeptRankings() throws {
        try ResultCache.forgetAll(in: database)
    }

    /// The naive SQL of a one-word prefix search, for the sqlite3 CLI to run on a plain FTS5
    /// table `people_fts` over `people` (the benchmark's floor): count every match, then rank
    /// every match with `bm25()` and ftsearch's default weights, whole-word matches first, ties
    /// by sort name and id — the reference plan's order for one word.
    @_spi(Benchmarking)
    public static func naivePrefixSQL(for token: String) -> String {
        let phrase = SearchPattern.quoted(token)
        let weights = Kind.people.searchableFields.map { SearchRequest.defaultWeight(of: $0) }
            .map { String(Int($0)) }.joined(separator: ", ")
        return """
            SELECT count(*) FROM people_fts('\(phrase)*');
            SELECT c.* FROM (SELECT rowid, bm25(people_fts, \(weights)) AS r FROM people_fts \
            WHERE people_fts MATCH '\(phrase)*') AS m JOIN people AS c ON c.id = m.rowid \
            ORDER BY (m.rowid IN (SELECT rowid FROM people_fts('\(phrase)'))) DESC, m.r, \
            \(SortName.sql(of: .people, table: "c")) COLLATE NOCASE, c.id LIMIT 20;
            """
    }
}

extension SearchIndex {
    /// The reference query of `suggest PREFIX` over the history, by frequency, for the sqlite3
    /// CLI to run on a history file (the whole-process floor of `suggest` in `scripts/bench`).
    @_spi(Benchmarking)
    public static func referenceSuggestionSQL(forPrefix prefix: String, limit: Int) -> String {
        let literal = "'" + prefix.replacing("'", with: "''") + "'"
        return Suggester.referenceSQL(order: .frequency)
            .replacing("?1", with: literal).replacing("?2", with: "'all'")
            .replacing("?3", with: "0").replacing("?5", with: String(limit)) + ";"
    }

    /// The file the history of the database at `path` is kept in.
    @_spi(Benchmarking)
    public static func historyFilePath(forDatabaseAt path: String) -> String {
        HistoryFile.path(forDatabaseAt: path)
    }
}
