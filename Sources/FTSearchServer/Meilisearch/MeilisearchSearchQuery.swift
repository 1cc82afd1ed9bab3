import FTSearchKit

/// The parameters of one Meilisearch search (`POST /indexes/{uid}/search`, a query of
/// `/multi-search`, or `GET /indexes/{uid}/search`'s query string), checked as Meilisearch
/// checks them: a wrong type is a 400 with `invalid_search_<parameter>`, an unknown parameter a
/// 400 `bad_request` that lists the known ones, and a Meilisearch feature ftsearch lacks
/// (`distinct`, `vector`...) a 400 that says so, unless it is empty. `filter`, `sort` and
/// `facets` are read in MeilisearchSearchQuery+Structure.swift.
struct MeilisearchSearchQuery: Sendable {
    enum MatchingStrategy: String, Sendable {
        /// Every word must match (the native API's and the command line's rule).
        case all
        /// The documents that match every word first, then those that match all but the last,
        /// and so on; phrases are never dropped (Meilisearch's default, and so the default of
        /// these routes).
        case last
        /// As `last`, but the word most records hold is dropped first, and so on.
        case frequency
    }

    var text = ""
    var offset = 0
    var limit = 20
    var page: Int?
    var hitsPerPage: Int?
    var attributesToRetrieve: [String]?
    var attributesToHighlight: [String] = []
    var highlightPreTag = "<em>"
    var highlightPostTag = "</em>"
    var attributesToCrop: [String] = []
    var cropLength = 10
    var cropMarker = "…"
    var showMatchesPosition = false
    var showRankingScore = false
    var attributesToSearchOn: [String]?
    var matchingStrategy = MatchingStrategy.last
    /// ftsearch's extension: `prefix` (the default), `substring`, `exact` or `fuzzy`.
    var match = MatchMode.prefix
    /// The index of a multi-search query.
    var indexUid: String?
    var filter: Filter?
    /// The expressions `filter` was read from, for the place an error names.
    var filterExpressions: [String] = []
    var sort: [SortKey] = []
    /// The fields whose values to count (`*`: every filterable one); nil when not asked.
    var facets: [String]?

    /// Whether the answer counts pages (`page` or `hitsPerPage` given) or offsets.
    var isPaged: Bool { page != nil || hitsPerPage != nil }

    static let supported = [
        "q", "offset", "limit", "page", "hitsPerPage", "attributesToRetrieve",
        "attributesToHighlight", "highlightPreTag", "highlightPostTag", "attributesToCrop",
        "cropLength", "cropMarker", "showMatchesPosition", "showRankingScore",
        "attributesToSearchOn", "matchingStrategy", "locales", "ftsearchMatch", "filter", "sort",
        "facets",
    ]

    /// Meilisearch's parameters that ftsearch does not implement: accepted when empty.
    static let unsupported = [
        "distinct", "vector", "hybrid", "retrieveVectors",
        "rankingScoreThreshold", "showRankingScoreDetails", "showPerformanceDetails",
        "media", "facetName", "facetQuery", "federationOptions",
    ]

    /// Reads a JSON object's members; `allowsIndexUid` for a multi-search query. Highlight
    /// tags and the crop marker may take at most `maximumTagSize` bytes each: every match
    /// repeats them.
    init(
        members: [JSONMember], allowsIndexUid: Bool = false, maximumLimit: Int,
        maximumTagSize: Int
    ) throws(MeilisearchError) {
        var seen = Set<String>()
        for member in members {
            let name = member.key
            let value = member.value
            guard seen.insert(name).inserted else {
                throw .invalid("bad_request", "Parameter `\(name)` is given more than once.")
            }
            func code() -> String { "invalid_search_" + Self.snakeCase(name) }
            switch name {
            case "q":
                text = try Self.optionalString(value, code: code(), name: name) ?? ""
            case "offset":
                offset = try Self.integer(value, code: code(), name: name, in: 0...Int(Int32.max))
            case "limit":
                limit = try Self.integer(value, code: code(), name: name, in: 0...maximumLimit)
            case "page":
                // null is unset, as in Meilisearch; page 0 is an empty page.
                page = try Self.optionalInteger(
                    value, code: code(), name: name, in: 0...Int(Int32.max))
            case "hitsPerPage":
                hitsPerPage = try Self.optionalInteger(
                    value, code: code(), name: name, in: 0...maximumLimit)
            case "attributesToRetrieve":
                attributesToRetrieve = try Self.strings(value, code: code(), name: name)
            case "attributesToHighlight":
                attributesToHighlight = try Self.strings(value, code: code(), name: name) ?? []
            case "highlightPreTag":
                highlightPreTag = try Self.tag(value, code: code(), name: name, maximumTagSize)
            case "highlightPostTag":
                highlightPostTag = try Self.tag(value, code: code(), name: name, maximumTagSize)
            case "attributesToCrop":
                attributesToCrop = try Self.strings(value, code: code(), name: name) ?? []
            case "cropLength":
                cropLength = try Self.integer(value, code: code(), name: name, in: 0...1000)
            case "cropMarker":
                cropMarker = try Self.tag(value, code: code(), name: name, maximumTagSize)
            case "showMatchesPosition":
                showMatchesPosition = try Self.bool(value, code: code(), name: name)
            case "showRankingScore":
                showRankingScore = try Self.bool(value, code: code(), name: name)
            case "locales":
                // Checked, then not needed: ftsearch folds and splits every script one way.
                _ = try Self.strings(value, code: code(), name: name)
            case "attributesToSearchOn":
                attributesToSearchOn = try Self.strings(value, code: code(), name: name)
            case "matchingStrategy":
                let text = try Self.string(value, code: code(), name: name)
                guard let strategy = MatchingStrategy(rawValue: text) else {
                    throw .invalid(
                        code(),
                        "Unknown value `\(text)` at `.matchingStrategy`: expected one of `last` "
                            + "(the default), `all`, `frequency`.")
                }
                matchingStrategy = strategy
            case "ftsearchMatch":
                let text = try Self.string(value, code: "invalid_search_ftsearch_match", name: name)
                guard let mode = MatchMode(rawValue: text) else {
                    throw .invalid(
                        "invalid_search_ftsearch_match",
                        "ftsearchMatch must be prefix, substring, exact or fuzzy, not `\(text)`.")
                }
                match = mode
            case "filter":
                (filter, filterExpressions) = try Self.filter(value)
            case "sort":
                sort = try Self.sortKeys(value)
            case "facets":
                facets = try Self.strings(value, code: code(), name: name)
            case "indexUid" where allowsIndexUid:
                indexUid = try Self.string(value, code: "invalid_index_uid", name: name)
            case _ where Self.unsupported.contains(name):
                guard Self.isEmpty(value) else {
                    throw .invalid(
                        code(),
                        "ftsearch does not support `\(name)`. Supported search parameters: "
                            + Self.supported.joined(separator: ", ") + ".")
                }
            default:
                throw .invalid(
                    "bad_request",
                    "Unknown field `\(name)`: expected one of "
                        + (Self.supported + (allowsIndexUid ? ["indexUid"] : [])).joined(
                            separator: ", ") + ".")
            }
        }
    }

    /// Reads `GET /indexes/{uid}/search`'s query string: lists comma-separated, numbers and
    /// booleans as text.
    init(parameters: [(String, String)], maximumLimit: Int, maximumTagSize: Int)
        throws(MeilisearchError)
    {
        let lists: Set<String> = [
            "attributesToRetrieve", "attributesToHighlight", "attributesToCrop",
            "attributesToSearchOn", "facets", "sort", "locales",
        ]
        let numbers: Set<String> = ["offset", "limit", "page", "hitsPerPage", "cropLength"]
        let booleans: Set<String> = ["showMatchesPosition", "showRankingScore"]
        let members = parameters.map { name, text -> JSONMember in
            let value: JSONValue
            if lists.contains(name) {
                value = .array(
                    text.split(separator: ",").map { .string(String($0).trimmingSpaces()) })
            } else if numbers.contains(name), Int(text) != nil {
                value = .number(text)
            } else if booleans.contains(name), text == "true" || text == "false" {
                value = .bool(text == "true")
            } else {
                value = .string(text)
            }
            return JSONMember(key: name, value: value)
        }
        try self.init(
            members: members, maximumLimit: maximumLimit, maximumTagSize: maximumTagSize)
    }

    // MARK: Values

    /// `hitsPerPage` → `hits_per_page`.
    static func snakeCase(_ name: String) -> String {
        var text = ""
        for character in name {
            if character.isUppercase {
                text += "_" + character.lowercased()
            } else {
                text.append(character)
            }
        }
        return text
    }

    static func isEmpty(_ value: JSONValue) -> Bool {
        switch value {
        case .null: true
        case .string(let text): text.isEmpty
        case .array(let elements): elements.isEmpty
        case .object(let members): members.isEmpty
        case .bool(let flag): !flag
        case .number: false
        }
    }

    static func optionalString(_ value: JSONValue, code: String, name: String)
        throws(MeilisearchError) -> String?
    {
        if case .null = value { return nil }
        return try string(value, code: code, name: name)
    }

    static func string(_ value: JSONValue, code: String, name: String)
        throws(MeilisearchError) -> String
    {
        guard case .string(let text) = value else {
            throw .invalid(code, "Invalid value type at `.\(name)`: expected a string.")
        }
        return text
    }

    /// A string of at most `maximumSize` UTF-8 bytes.
    static func tag(_ value: JSONValue, code: String, name: String, _ maximumSize: Int)
        throws(MeilisearchError) -> String
    {
        let text = try string(value, code: code, name: name)
        guard text.utf8.count <= maximumSize else {
            throw .invalid(
                code,
                "Invalid value at `.\(name)`: \(text.utf8.count) bytes; ftsearch takes at most "
                    + "\(maximumSize).")
        }
        return text
    }

    static func integer(_ value: JSONValue, code: String, name: String, in range: ClosedRange<Int>)
        throws(MeilisearchError) -> Int
    {
        guard case .number(let literal) = value, let number = Int(literal), range.contains(number)
        else {
            throw .invalid(
                code,
                "Invalid value at `.\(name)`: expected an integer from \(range.lowerBound) to "
                    + "\(range.upperBound).")
        }
        return number
    }

    /// An integer in `range`, or nil for null.
    static func optionalInteger(
        _ value: JSONValue, code: String, name: String, in range: ClosedRange<Int>
    ) throws(MeilisearchError) -> Int? {
        if case .null = value { return nil }
        return try integer(value, code: code, name: name, in: range)
    }

    static func bool(_ value: JSONValue, code: String, name: String) throws(MeilisearchError)
        -> Bool
    {
        guard case .bool(let flag) = value else {
            throw .invalid(code, "Invalid value type at `.\(name)`: expected a boolean.")
        }
        return flag
    }

    /// An array of strings, or nil for null.
    static func strings(_ value: JSONValue, code: String, name: String)
        throws(MeilisearchError) -> [String]?
    {
        switch value {
        case .null: return nil
        case .array(let elements):
            var texts: [String] = []
            for element in elements {
                guard case .string(let text) = element else {
                    throw .invalid(code, "Invalid value type at `.\(name)`: expected strings.")
                }
                texts.append(text)
            }
            return texts
        default:
            throw .invalid(code, "Invalid value type at `.\(name)`: expected an array of strings.")
        }
    }
}
