package import FTSearchSQLite

/// Runs ranked searches against the FTS5 indexes, in every ``MatchMode``.
///
/// Order (the ranking rules, see ``RankTier``): every query token must match; then tokens
/// matched in more important fields first (a name above a company: `han` puts Hansen above a
/// colleague at Hạn Trading); then more tokens matching whole words (`ann` puts Ann above
/// Annabelle, which bm25 alone would not); then fewer typos (fuzzy, other spellings); then
/// fewer tokens matched only inside a word (substring); then more tokens typed with accents
/// matching the same accents (`mül` puts Müller above Mullins); then bm25 with field weights;
/// then sort name, kind and id, so equal results always come in the same order.
///
/// One plan gives that order: ``RankedPage`` (whose rankings of expensive searches the
/// ``ResultCache`` keeps), for every page at any offset, for every match (no limit) and for a
/// count (limit 0). The reference plan (``referenceSearch(_:)``, in ReferencePlan.swift), which
/// ranks every match with `bm25()` and SQL subqueries for the tiers, is no path of a search:
/// it is the oracle the tests hold this plan to, and the benchmark's baseline.
package struct QueryEngine {
    let database: Database
    package let tokenizer: FTS5Tokenizer
    /// A second connection for ranking large tables in two halves at once, opened on demand.
    var helper: () -> RankingHelper?
    /// Tables whose rowids span fewer than this are ranked on one connection.
    var parallelMinimumSpan: Int64
    /// Whether the plans it serves are ranked from FTS5's doclists (see ``DoclistRanking``).
    package var readsDoclists = true
    /// The FTS5 format version the doclist reader decodes; an index of another is ranked
    /// through FTS5's cursor (tests give another to reach that path).
    var doclistFormatVersion: Int
    /// What searches keep in memory for the next ones (vocabularies); nil for nothing.
    var memory: SearchMemory?
    /// Where the rankings of expensive searches are kept; nil to rank every search.
    var resultCache: ResultCache?

    /// Where its plans' matches come from, as the properties above set them.
    var sources: MatchSources {
        MatchSources(
            database: database, helper: helper, parallelMinimumSpan: parallelMinimumSpan,
            readsDoclists: readsDoclists, doclistFormatVersion: doclistFormatVersion)
    }
    /// Where the records' fields are kept for filters, facets and sort; nil to read them for
    /// every search.
    package var fieldTables: FieldTableCache?
    /// Where the answers of variant lookups are kept; nil to ask FTS5 every time.
    package var variantGates: VariantGates?

    package init(
        database: Database, tokenizer: FTS5Tokenizer,
        helper: @escaping () -> RankingHelper? = { nil }, parallelMinimumSpan: Int64 = 200_000,
        readsDoclists: Bool = true,
        doclistFormatVersion: Int = DoclistRanking.knownFormatVersion,
        memory: SearchMemory? = nil, resultCache: ResultCache? = nil,
        fieldTables: FieldTableCache? = nil, variantGates: VariantGates? = nil
    ) {
        self.database = database
        self.tokenizer = tokenizer
        self.helper = helper
        self.parallelMinimumSpan = parallelMinimumSpan
        self.readsDoclists = readsDoclists
        self.doclistFormatVersion = doclistFormatVersion
        self.memory = memory
        self.resultCache = resultCache
        self.fieldTables = fieldTables
        self.variantGates = variantGates
    }

    package func search(_ request: SearchRequest) throws -> SearchResults {
        try request.validate()
        // A filter alone restricts the ranking (kept as any other, see RankingRestriction).
        if request.isStructured,
            request.listsEverything || !request.sort.isEmpty || !request.facets.isEmpty
        {
            return try structuredSearch(request)
        }
        if request.listsEverything {
            return try listEverything(request)
        }
        var restriction: RankingRestriction?
        // The plans, the ranking and the page's records from one version of the database, and
        // one read transaction (its file locks) for all their reads, each index's structure
        // record read once (see IndexStructure); keeping the ranking (and the columns a filter
        // read) is a write, so it waits for the end of that transaction.
        let found = try database.readingOneVersion { () -> (SearchResults, Ranking)? in
            guard let (plans, empty) = try plans(for: request) else {
                return nil
            }
            var results = empty
            restriction = try request.filter.map {
                try RankingRestriction($0, kinds: plans.map(\.kind), in: self)
            }
            // A count (limit 0) is the total of the ranking of its best match; every match (no
            // limit) is the page that ends at that total.
            var page = request
            if request.limit ?? 0 == 0 {
                page.offset = 0
                page.limit = 1
            }
            var ranking = try rankedOrder(plans, request: page, restriction: restriction)
            results.total = ranking.order.total
            if request.limit == nil && results.total > request.offset {
                page = request
                page.limit = results.total - request.offset
                ranking = try rankedOrder(plans, request: page, restriction: restriction)
            }
            if page.limit != nil && request.limit != 0 {
                results.hits = try ranking.order.hits(
                    offset: request.offset, limit: page.limit ?? 0, from: database)
            }
            return (results, ranking)
        }
        guard let (results, ranking) = found else {
            return SearchResults(query: request.text, total: 0, hits: [], tokens: [])
        }
        if let restriction { FieldColumnStore.keep(restriction.read, in: database) }
        try ranking.keep()
        return try withDidYouMean(results, request: request)
    }

    /// A ranking of the best matches, and what keeping it for the next searches takes.
    private struct Ranking {
        var order: RankedOrder
        /// Keeps the order in the result cache when ranking it was expensive; nothing when it
        /// was kept already, was cheap, or there is no cache.
        var keep: () throws -> Void = {}
    }

    /// The order of the best matches up to the end of `request`'s page (among the rows
    /// `restriction` admits): kept by the result cache (and brought up to date after writes),
    /// or ranked by the fast plan (and then, if that was expensive, to be kept by the returned
    /// ranking's ``Ranking/keep``).
    private func rankedOrder(
        _ plans: [MatchPlan], request: SearchRequest, restriction: RankingRestriction? = nil
    ) throws -> Ranking {
        let slot = try resultCache?.slot(for: plans, restriction: restriction)
        let end = request.pageEnd
        if let slot,
            let kept = try resultCache?.order(
                in: slot, covering: end, plans: plans, tokenizer: tokenizer)
        {
            return Ranking(order: kept)
        }
        let clock = ContinuousClock()
        let started = clock.now
        // The last change the ranking includes, for its frontier. The helper's connection
        // reads a version of its own: a change logged before the ranking is kept may be in
        // the helper's half or not, and then the ranking has no frontier.
        let sequence = try resultCache.map { _ in try SearchChanges.latestSequence(in: database) }
        let (order, frontier) = try RankedPage(
            database: database, plans: restriction?.restricting(plans) ?? plans,
            request: request, sources: sources
        ).rank(withFrontier: resultCache != nil)
        let cost = clock.now - started
        // A ranking too cheap to keep reads no change log (outside the transaction, a read
        // of its own) to find out.
        guard let slot, let resultCache, resultCache.keeps(order, cost: cost) else {
            return Ranking(order: order)
        }
        return Ranking(order: order) {
            var frontier = frontier
            if let sequence, try SearchChanges.latestSequence(in: database) == sequence {
                frontier?.changeSequence = sequence
            } else {
                frontier = nil
            }
            resultCache.keep(order, frontier: frontier, in: slot, cost: cost)
        }
    }

    /// `results`, with a did-you-mean suggestion when a prefix search found nothing: one that
    /// finds something (with the same filter, see ``count(of:)``).
    func withDidYouMean(_ results: SearchResults, request: SearchRequest) throws
        -> SearchResults
    {
        guard results.total == 0 && request.match == .prefix else { return results }
        var results = results
        results.didYouMean = try Correction(database: database, request: request, memory: memory)
            .suggestion(for: results.tokens) { try self.count(of: $0) }
        return results
    }

    /// The plan of each kind searched (kinds whose fields are all filtered out have none), and
    /// the empty results carrying the highlighting information; nil when the text has no token.
    func plans(for request: SearchRequest) throws -> ([MatchPlan], SearchResults)? {
        let text = NameVariants.normalizedQuery(request.text)
        let typed = tokenizer.tokens(in: text)
        let wordIndexes = request.kinds.inOrder.map { FullTextIndex.words(of: $0).name }
        guard
            let pattern = SearchPattern(
                tokens: JoinedNames.separating(typed.map(\.text)) { query in
                    wordIndexes.contains { isHeld(query, in: $0) }
                })
        else { return nil }
        let firstTyped = pattern.tokens.map { token in typed.firstIndex { $0.text == token } }
        let accentForms = firstTyped.map {
            $0.flatMap { Self.accentForm(of: typed[$0], in: text) }
        }
        let variants = firstTyped.map { token in
            token.map { Self.variants(of: typed[$0], in: text) } ?? []
        }
        let typedApostropheWords = NameVariants.apostropheWords(of: typed, in: text)
        let apostropheWords = firstTyped.map { $0.flatMap { typedApostropheWords[$0] } }
        var corrections = Set<String>()
        let plans = try request.kinds.inOrder.compactMap { kind in
            var vocabulary: Vocabulary?
            return try MatchPlan(
                kind: kind, tokens: pattern.tokens, accentForms: accentForms, variants: variants,
                apostropheWords: apostropheWords, request: request,
                corrections: { token in
                    if vocabulary == nil {
                        vocabulary = try Vocabulary.load(kind, from: database, memory: memory)
                    }
                    let found = vocabulary.map { Correction.typoMatches(of: token, in: $0) } ?? []
                    corrections.formUnion(found.map(\.word))
                    return found
                },
                heldPhrases: { try heldPhrases($0, in: FullTextIndex.words(of: kind).name) })
        }
        let empty = SearchResults(
            query: request.text, total: 0, hits: [], tokens: pattern.tokens, match: request.match,
            corrections: corrections.sorted())
        return (plans, empty)
    }

    /// Which of the variant `phrases` some row of `index` holds (their texts): one lookup of
    /// them all — each marked form by its gate (``NameVariants/gate(of:)``), one phrase for the
    /// three markers — which finds nothing for most searches, then one per phrase; each answer
    /// kept in ``variantGates`` while the index is unchanged. A phrase that cannot be looked up
    /// (a damaged index) counts as held: the search then ranks what it can or reports the
    /// error.
    private func heldPhrases(_ phrases: [MatchPlan.Phrase], in index: String) throws
        -> Set<String>
    {
        let structure = try variantGates.map { _ in
            try IndexStructure.record(ofIndexNamed: index, in: database)
        }
        func isHeld(_ query: String) -> Bool {
            guard let variantGates, let structure else { return self.isHeld(query, in: index) }
            return variantGates.isHeld(query, in: index, structure: structure) {
                self.isHeld(query, in: index)
            }
        }
        var first: [String] = []
        var gated: Set<String> = []
        for phrase in phrases {
            // A marker is one byte (U+0004 through U+0006); the three markers' forms of a word
            // share its gate.
            let isMarked = phrase.term.utf8.first.map { (0x04...0x06).contains($0) }
            let text: String
            if isMarked == true {
                let word = String(decoding: phrase.term.utf8.dropFirst(), as: UTF8.self)
                guard gated.insert(word).inserted else { continue }
                text = SearchPattern.quoted(NameVariants.gate(of: word)) + "*"
            } else {
                text = phrase.text
            }
            if !first.contains(text) { first.append(text) }
        }
        guard isHeld(first.joined(separator: " OR ")) else { return [] }
        return Set(phrases.map(\.text).filter(isHeld))
    }

    /// Whether some row of `index` matches the FTS5 `query`; true when the query cannot be
    /// run (a damaged index): the search then ranks what it can or reports the error.
    private func isHeld(_ query: String, in index: String) -> Bool {
        do {
            return try database.cachedStatement(sql: "SELECT 1 FROM \(index)(?1) LIMIT 1")
                .firstRow([query]) { _ in true } != nil
        } catch {
            return true
        }
    }

    /// The token as typed, in lowercase, when that differs from its folded form (`Mül` →
    /// `mül`): what the index's accent forms are compared with.
    static func accentForm(of token: FTS5Tokenizer.Token, in text: String) -> String? {
        let form = String(decoding: lowercasedSource(of: token, in: text), as: UTF8.self)
        return form == token.text ? nil : form
    }

    /// The token's other spellings, as plain words (see ``NameVariants``).
    static func variants(of token: FTS5Tokenizer.Token, in text: String) -> [String] {
        NameVariants.variants(
            ofLowercased: lowercasedSource(of: token, in: text), folded: Array(token.text.utf8)
        ).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The token as typed, lowercased as the tokenizer lowercases it for accent forms.
    private static func lowercasedSource(of token: FTS5Tokenizer.Token, in text: String)
        -> [UInt8]
    {
        var form: [UInt8] = []
        Array(text.utf8)[token.sourceRange].withUnsafeBytes {
            FoldingTokenizer.appendLowercased($0, to: &form)
        }
        return form
    }

    /// The number of records matching `request` (every kind searched, among the rows its
    /// filter admits): the total of the ranking of its best match.
    package func count(of request: SearchRequest) throws -> Int {
        var page = request
        (page.offset, page.limit) = (0, 1)
        var restriction: RankingRestriction?
        let total = try database.readingOneVersion {
            guard let (plans, _) = try plans(for: request) else { return 0 }
            restriction = try request.filter.map {
                try RankingRestriction($0, kinds: plans.map(\.kind), in: self)
            }
            return try rankedOrder(plans, request: page, restriction: restriction).order.total
        }
        if let restriction { FieldColumnStore.keep(restriction.read, in: database) }
        return total
    }

    /// Every record, people then animals, each kind by sort name and id. A kind's sort codes
    /// (see ``SortCodes``) tell which ids have a record and place nearly every one by the first
    /// three bytes of its name, so a page reads the whole names of only the records whose codes
    /// tie with its own (see ``SortKeyOrder``: at most the 24,000 `van…` of a million people),
    /// then its records: no page reads more names than its own run of equal codes holds.
    /// `inSQL`, SQLite's ORDER BY sorts every record instead: the reference plan, and the way
    /// for a kind where a name cannot be read as text.
    func listEverything(_ request: SearchRequest, inSQL: Bool = false) throws
        -> SearchResults
    {
        try database.readingOneVersion {
            var total = 0
            var hits: [SearchHit] = []
            var records = RecordRows.Readers(database: database)
            let order = SortKeyOrder(database: database)
            for kind in request.kinds.inOrder {
                let census = inSQL ? nil : try SortCodeCensus(of: kind, in: database)
                let count = try census?.total ?? kind.recordCount(in: database)
                let skipped = max(0, request.offset - total)
                let wanted = min(request.limit.map { $0 - hits.count } ?? .max, count - skipped)
                total += count
                guard wanted > 0 else { continue }
                let page = skipped..<skipped + wanted
                let ids =
                    try census?.ids(at: page, in: order)
                    ?? listed(kind, at: page)
                for id in ids {
                    if let record = try records.record(of: kind, id: id) {
                        hits.append(SearchHit(record: record, score: 0, tier: .unranked))
                    }
                }
            }
            return SearchResults(query: request.text, total: total, hits: hits, tokens: [])
        }
    }

    /// The ids of `kind` at `positions` of the listing, sorted by SQLite.
    private func listed(_ kind: Kind, at positions: Range<Int>) throws -> [Int64] {
        var ids: [Int64] = []
        try database.cachedStatement(
            sql: """
                SELECT id FROM \(kind.tableName) ORDER BY (\(SortName.sql(of: kind))) COLLATE NOCASE, id
                LIMIT ?1 OFFSET ?2
                """
        ).forEachRow([positions.count, positions.lowerBound]) { ids.append($0.int64(at: 0)) }
        return ids
    }
}

extension Kind {
    /// The kind a plan's SQL names in column `index` of `row` (`SELECT 'people' AS kind, ...`).
    init(selectedAt index: Int32, of row: Statement) {
        guard let kind = Kind(rawValue: row.text(at: index) ?? "") else {
            preconditionFailure("every plan selects the name of a kind")
        }
        self = kind
    }
}
