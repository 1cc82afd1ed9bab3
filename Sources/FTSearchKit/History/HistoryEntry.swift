/// One remembered search: every search that normalizes to the same key counts here.
public struct HistoryEntry: Sendable, Equatable {
    /// The entry's id, for `history delete`.
    public var id: Int64
    /// The latest spelling of the search.
    public var text: String
    /// The normalized key (see ``SearchHistory``).
    public var key: String
    /// The kinds searched the last time.
    public var kinds: Set<Kind>
    /// How many records the last search found.
    public var resultCount: Int
    /// How many times it was searched.
    public var useCount: Int
    /// When it was first searched.
    public var firstUsed: Timestamp
    /// When it was last searched.
    public var lastUsed: Timestamp
}

/// A history entry that does not exist.
public struct HistoryEntryNotFound: Error, Equatable, Sendable, CustomStringConvertible {
    /// The id or text asked for.
    public var reference: String

    /// `no history entry with id 7`.
    public var description: String { "no history entry \(reference)" }
}
