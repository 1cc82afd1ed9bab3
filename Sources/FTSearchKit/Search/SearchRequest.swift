/// What to search for, and which page of the ranked results to return.
public struct SearchRequest: Sendable, Equatable {
    /// The text as the user typed it. Empty or white space lists every record.
    public var text: String
    /// Which kinds to search.
    public var kinds: KindSelection
    /// The most results to return; `nil` for all.
    public var limit: Int?
    /// How many ranked results to skip.
    public var offset: Int

    /// Creates a request; `limit` and `offset` must not be negative.
    public init(text: String, kinds: KindSelection = .all, limit: Int? = 20, offset: Int = 0) {
        precondition(limit.map { $0 >= 0 } ?? true, "limit must not be negative")
        precondition(offset >= 0, "offset must not be negative")
        self.text = text
        self.kinds = kinds
        self.limit = limit
        self.offset = offset
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
}

/// One matching record and its relevance.
public struct SearchHit: Sendable, Equatable {
    /// The matching person or animal, with all its fields.
    public var record: Record
    /// The bm25 relevance with field weights; higher is better (0 when listing everything).
    public var score: Double
    /// How many query tokens match a whole word of the record (ranked before `score`).
    public var wholeTokenMatches: Int
}
