/// A completion offered for a typed prefix.
public struct Suggestion: Sendable, Equatable {
    /// Where a suggestion comes from.
    public enum Source: String, Sendable, CaseIterable {
        /// A past search.
        case history
        /// A word of the indexed names and companies.
        case index
    }

    /// The text to offer.
    public var text: String
    /// Where the suggestion comes from.
    public var source: Source
    /// For history, how often it was searched; for the index, how many records hold the word.
    public var count: Int
    /// When it was last searched (history only).
    public var lastUsed: Timestamp?
    /// How many records it found the last time it was searched (history only).
    public var resultCount: Int? = nil
}

/// What `suggestions(forPrefix:...)` draws on, and how it orders history.
public struct SuggestionOptions: Sendable, Equatable {
    /// How history entries are ordered.
    public enum Order: String, Sendable, CaseIterable {
        /// Most searched first, then most recent, then text.
        case frequency
        /// Most recently searched first.
        case recency
        /// Count weighted by age, as zoxide does: last hour ×4, last day ×2, last week ×½,
        /// older ×¼.
        case frecency
    }

    /// The most suggestions to return.
    public var limit: Int
    /// Which kinds' searches and words to draw on.
    public var kinds: Set<Kind>
    /// How history entries are ordered.
    public var order: Order
    /// Which sources to draw on; with both, history comes first, filled up from the index.
    public var sources: Set<Suggestion.Source>
    /// Also suggest past searches that found nothing.
    public var includesEmptyResults: Bool

    /// Creates options; the defaults are those of `ftsearch suggest`.
    public init(
        limit: Int = 10, kinds: Set<Kind> = .all, order: Order = .frequency,
        sources: Set<Suggestion.Source> = [.history, .index], includesEmptyResults: Bool = false
    ) {
        self.limit = limit
        self.kinds = kinds
        self.order = order
        self.sources = sources
        self.includesEmptyResults = includesEmptyResults
    }
}
