/// One value of a field and how many matching records have it (``SearchResults/facets``).
public struct FacetValue: Sendable, Equatable {
    /// The value as the records write it (the first record's spelling when several fold to
    /// the same text); numbers as JSON writes them.
    public var value: String
    /// How many matching records have it (a record whose array holds it twice counts once).
    public var count: Int

    /// Creates a facet value.
    public init(value: String, count: Int) {
        self.value = value
        self.count = count
    }
}

/// The lowest and highest number a field holds among the matches (``SearchResults/facetStats``).
public struct FacetStats: Sendable, Equatable {
    /// The lowest number.
    public var min: Double
    /// The highest number.
    public var max: Double

    /// Creates statistics.
    public init(min: Double, max: Double) {
        self.min = min
        self.max = max
    }
}

/// The values of one field among the matches of a search, for a facet panel or Meilisearch's
/// facet search: ``SearchIndex/facetValues(_:)``.
public struct FacetSearchRequest: Sendable, Equatable {
    /// The field whose values are counted.
    public var field: String
    /// Only values that start with this text, folded as search folds it; empty for all.
    public var valuePrefix: String
    /// The search (text and filter) whose matches are counted; its page is ignored.
    public var search: SearchRequest
    /// The most values returned, by count then value.
    public var limit: Int

    /// Creates a request.
    public init(
        field: String, valuePrefix: String = "", search: SearchRequest = SearchRequest(text: ""),
        limit: Int = 100
    ) {
        self.field = field
        self.valuePrefix = valuePrefix
        self.search = search
        self.limit = limit
    }
}
