/// One remembered search: every search that normalizes to the same key counts here.
public struct HistoryEntry: Sendable, Equatable {
    public var id: Int64
    /// The latest spelling of the search.
    public var text: String
    /// The normalized key (see ``SearchHistory``).
    public var key: String
    /// The kinds searched the last time.
    public var kinds: KindSelection
    /// How many records the last search found.
    public var resultCount: Int
    /// How many times it was searched.
    public var useCount: Int
    public var firstUsed: Timestamp
    public var lastUsed: Timestamp
}

/// A history entry that does not exist.
public struct HistoryEntryNotFound: Error, Equatable, Sendable, CustomStringConvertible {
    /// The id or text asked for.
    public var reference: String

    public var description: String { "no history entry \(reference)" }
}
