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

    /// The singular noun, for messages: "person", "animal".
    public var singularNoun: String {
        switch self {
        case .people: "person"
        case .animals: "animal"
        }
    }
}

/// A set of kinds — which records a search, an export or a suggestion applies to — with the
/// usual sets by name: `kinds: .people`, `kinds: .all`.
extension Set<Kind> {
    /// People and animals.
    public static var all: Self { Set(Kind.allCases) }
    /// People alone.
    public static var people: Self { [.people] }
    /// Animals alone.
    public static var animals: Self { [.animals] }

    /// The kinds in their fixed order (people, then animals), for output that must not depend
    /// on hashing.
    public var inOrder: [Kind] {
        // Two kinds: the count and the one member tell the order without hashing (every search
        // asks it several times).
        switch count {
        case 0: []
        case 1: [first!]
        default: Kind.allCases.filter(contains)
        }
    }

    /// `people`, `animals` or `all`, as the command line, the server and the history name the
    /// set (the empty set is `none`).
    public var name: String {
        switch count {
        case Kind.allCases.count: "all"
        case 1: first!.rawValue
        default: "none"
        }
    }

    /// The set ``name`` names, or nil for any other text.
    public init?(name: String) {
        if name == "all" {
            self = .all
        } else if let kind = Kind(rawValue: name) {
            self = [kind]
        } else {
            return nil
        }
    }
}
