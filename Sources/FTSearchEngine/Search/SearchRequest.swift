/// What to search for, and which page of the ranked results to return.
public struct SearchRequest: Sendable, Equatable {
    /// The text as the user typed it. Empty or white space lists every record.
    public var text: String
    /// Which kinds to search.
    public var kinds: Set<Kind>
    /// The most results to return; `nil` for all.
    public var limit: Int?
    /// How many ranked results to skip.
    public var offset: Int
    /// How query words must match record words.
    public var match: MatchMode
    /// The searchable fields to match in (`["first_name", "company"]`); nil for all of them.
    public var fields: [String]?
    /// bm25 weights by field name, replacing the defaults (first and last name 10, company 4,
    /// name 10) for the fields given.
    public var weights: [String: Double]
    /// Which records to keep (see ``Filter``); nil for all.
    public var filter: Filter?
    /// The fields to order the matches by, before relevance; empty for relevance (the
    /// listing order when the text is empty).
    public var sort: [SortKey]
    /// The fields whose values to count over all matches (``SearchResults/facets``).
    public var facets: [String]

    /// Creates a request; a search refuses it with ``SearchRequestError`` when ``validate()``
    /// finds a problem (a negative limit or offset, a field the kinds do not have).
    public init(
        text: String, kinds: Set<Kind> = .all, limit: Int? = 20, offset: Int = 0,
        match: MatchMode = .prefix, fields: [String]? = nil, weights: [String: Double] = [:],
        filter: Filter? = nil, sort: [SortKey] = [], facets: [String] = []
    ) {
        self.text = text
        self.kinds = kinds
        self.limit = limit
        self.offset = offset
        self.match = match
        self.fields = fields
        self.weights = weights
        self.filter = filter
        self.sort = sort
        self.facets = facets
    }

    /// Whether the request filters, sorts or counts facets: what the plain ranked search
    /// (and its kept rankings) does not serve.
    var isStructured: Bool { filter != nil || !sort.isEmpty || !facets.isEmpty }

    /// The searchable fields of the kinds searched, in a fixed order.
    public var searchableFields: [String] {
        var seen = Set<String>()
        return kinds.inOrder.flatMap(\.searchableFields).filter { seen.insert($0).inserted }
    }

    /// Throws when no kind is searched, the limit or the offset is negative, a field to match
    /// in or to weigh is not a searchable field of the kinds searched, or a weight is negative.
    /// Every search calls it; a caller may call it first, to report the problem its own way.
    public func validate() throws(SearchRequestError) {
        guard !kinds.isEmpty else { throw .noKinds }
        guard (limit ?? 0) >= 0, offset >= 0 else {
            throw .negativePage(limit: limit, offset: offset)
        }
        let valid = searchableFields
        for name in (fields ?? []) + weights.keys.sorted() where !valid.contains(name) {
            throw .unknownField(name, validFields: valid)
        }
        for (field, weight) in weights.sorted(by: { $0.key < $1.key })
        where !(weight >= 0 && weight.isFinite) {
            throw .invalidWeight(field: field, weight: weight)
        }
    }

    /// The position after the page's last result: `offset + limit`, at most `Int.max`.
    var pageEnd: Int {
        let (end, overflow) = offset.addingReportingOverflow(limit ?? 0)
        return overflow ? .max : end
    }

    /// The bm25 weight of each column of `kind`'s indexes, in column order.
    func columnWeights(of kind: Kind) -> [Double] {
        guard !weights.isEmpty else { return kind.searchableFields.map(Self.defaultWeight(of:)) }
        return kind.searchableFields.map { weights[$0] ?? Self.defaultWeight(of: $0) }
    }

    /// The default bm25 weight of a field: names 10, company 4.
    package static func defaultWeight(of field: String) -> Double {
        field == "company" ? 4 : 10
    }

    /// The columns of `kind` to match in; nil when all of them (no column filter).
    func matchedColumns(of kind: Kind) -> [String]? {
        guard let fields else { return nil }
        return kind.searchableFields.filter { fields.contains($0) }
    }

    /// Whether the text has nothing but white space, which lists every record.
    public var listsEverything: Bool { text.allSatisfy(\.isWhitespace) }
}

/// A page of ranked results.
public struct SearchResults: Sendable, Equatable {
    /// The text searched for.
    public var query: String
    /// The number of all matching records, whatever the limit and offset.
    public var total: Int
    /// The results of the requested page, best first.
    public var hits: [SearchHit]
    /// The folded tokens of the query (empty when it listed everything), for highlighting.
    public var tokens: [String]
    /// How the tokens matched, for highlighting.
    public var match: MatchMode = .prefix
    /// For fuzzy matching: the folded words matched with typos, for highlighting.
    public var corrections: [String] = []
    /// When a prefix search found nothing: the query with its unknown words corrected, which
    /// finds records (`smiht` → `smith`).
    public var didYouMean: String?
    /// For each field of ``SearchRequest/facets``: its most frequent values among all matches,
    /// at most 100, by count then value.
    public var facets: [String: [FacetValue]] = [:]
    /// For each field of ``SearchRequest/facets`` holding numbers: their lowest and highest.
    public var facetStats: [String: FacetStats] = [:]

    /// Creates results.
    public init(
        query: String, total: Int, hits: [SearchHit], tokens: [String], match: MatchMode = .prefix,
        corrections: [String] = [], didYouMean: String? = nil
    ) {
        self.query = query
        self.total = total
        self.hits = hits
        self.tokens = tokens
        self.match = match
        self.corrections = corrections
        self.didYouMean = didYouMean
    }
}

/// One matching record and its relevance.
public struct SearchHit: Sendable, Equatable {
    /// The matching person or animal, with all its fields and timestamps.
    public var record: AnyRecord
    /// The bm25 relevance with field weights; higher is better (0 when listing everything).
    public var score: Double
    /// How important the fields the query tokens matched in are (ranked first, more first):
    /// the sum, over the tokens, of the level of the best field each matched in, a field's
    /// level being the number of distinct lower weights among the fields of the kinds
    /// searched. With the default weights a name (first, last, an animal's) is 1, a company 0.
    public var fieldLevels: Int = 0
    /// How many query tokens match a whole word of the record (ranked second, more first).
    public var wholeTokenMatches: Int
    /// The typos of the record's match (fuzzy matching, other spellings; ranked third,
    /// fewer first).
    public var typos: Int = 0
    /// How many query tokens match only inside a word, not at its start (substring matching;
    /// ranked fourth, fewer first).
    public var infixMatches: Int = 0
    /// How many query tokens typed with accents (or other letters that fold: ø, ß...) match
    /// a word written with the same letters (ranked fifth, more first).
    public var accentMatches: Int = 0

    /// Creates a hit.
    public init(
        record: AnyRecord, score: Double, fieldLevels: Int = 0, wholeTokenMatches: Int,
        typos: Int = 0, infixMatches: Int = 0, accentMatches: Int = 0
    ) {
        self.record = record
        self.score = score
        self.fieldLevels = fieldLevels
        self.wholeTokenMatches = wholeTokenMatches
        self.typos = typos
        self.infixMatches = infixMatches
        self.accentMatches = accentMatches
    }

    /// The hit's rank before bm25 (see ``RankTier``).
    init(record: Record, score: Double, tier: RankTier) {
        self.init(
            record: AnyRecord(record), score: score, fieldLevels: tier.fieldLevels,
            wholeTokenMatches: tier.wholeTokenMatches,
            typos: tier.typos, infixMatches: tier.infixMatches,
            accentMatches: tier.accentMatches)
    }
}
