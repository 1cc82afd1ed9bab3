/// A search request that names something the index does not have, or asks for an impossible
/// page.
public enum SearchRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A field to match in, or to weigh, that no searched kind has.
    case unknownField(String, validFields: [String])
    /// A negative or non-finite bm25 weight.
    case invalidWeight(field: String, weight: Double)
    /// A negative limit or offset.
    case negativePage(limit: Int?, offset: Int)
    /// No kind to search.
    case noKinds

    /// A sentence naming the problem and what is valid.
    public var description: String {
        switch self {
        case .unknownField(let name, let valid):
            "unknown field '\(name)'; valid fields: \(valid.joined(separator: ", "))"
        case .invalidWeight(let field, let weight):
            "the weight of \(field) must be a number of at least 0, not \(weight)"
        case .negativePage(let limit, let offset):
            "the limit and the offset must be 0 or more, not \(limit.map(String.init) ?? "none") "
                + "and \(offset)"
        case .noKinds:
            "no kind of record to search: choose people, animals or both"
        }
    }
}
