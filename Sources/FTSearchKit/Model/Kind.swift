/// The kinds of record ftsearch stores.
public enum Kind: String, CaseIterable, Sendable, Codable {
    case people
    case animals

    /// The fields that are indexed for full-text search, in index column order.
    public var searchableFields: [String] {
        switch self {
        case .people: ["first_name", "last_name", "company"]
        case .animals: ["name"]
        }
    }

    /// The content table's name.
    var tableName: String { rawValue }

    /// The FTS5 index's name.
    var indexName: String { "\(rawValue)_fts" }

    /// The FTS5 index of folded trigrams, for substring matching.
    var substringIndexName: String { "\(rawValue)_substring" }

    /// The singular noun, for messages: "person", "animal".
    public var singularNoun: String {
        switch self {
        case .people: "person"
        case .animals: "animal"
        }
    }
}

/// Which kinds a command applies to.
public enum KindSelection: String, CaseIterable, Sendable {
    case people
    case animals
    case all

    /// The kinds selected, in a fixed order.
    public var kinds: [Kind] {
        switch self {
        case .people: [.people]
        case .animals: [.animals]
        case .all: Kind.allCases
        }
    }
}
