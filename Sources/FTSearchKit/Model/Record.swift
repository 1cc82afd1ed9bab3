/// A person or an animal: its searchable fields and any extra fields it came with.
public struct Record: Sendable, Equatable {
    /// Whether the record is a person or an animal.
    public var kind: Kind
    /// The record's id; `nil` for a new record that has not been stored yet.
    public var id: Int64?
    /// The searchable fields, in the order of `kind.searchableFields` (empty text when absent).
    public var searchableValues: [String]
    /// Every other field of the input, with its JSON type, in input order.
    public var extraFields: [JSONMember]

    /// Creates a record; `searchableValues` must match `kind.searchableFields`.
    public init(
        kind: Kind, id: Int64? = nil, searchableValues: [String], extraFields: [JSONMember] = []
    ) {
        precondition(
            searchableValues.count == kind.searchableFields.count,
            "a \(kind.singularNoun) has \(kind.searchableFields.count) searchable fields")
        self.kind = kind
        self.id = id
        self.searchableValues = searchableValues
        self.extraFields = extraFields
    }

    /// The value of the searchable field `name` (`first_name`, `company`, `name`...).
    public subscript(field name: String) -> String? {
        kind.searchableFields.firstIndex(of: name).map { searchableValues[$0] }
    }

    /// All fields as JSON members: searchable fields first, then the extra fields.
    public var allFields: [JSONMember] {
        zip(kind.searchableFields, searchableValues).map { JSONMember(key: $0, value: .string($1)) }
            + extraFields
    }

    /// The name to show for the record: "Anna Müller", "Rex".
    public var displayName: String {
        searchableValues.prefix(kind == .people ? 2 : 1).filter { !$0.isEmpty }.joined(
            separator: " ")
    }
}
