package import FTSearchFormats
/// A person or an animal: its searchable fields and any extra fields it came with.
package struct Record: Sendable, Equatable {
    /// Whether the record is a person or an animal.
    package var kind: Kind
    /// The record's id; `nil` for a new record that has not been stored yet.
    package var id: Int64?
    /// The searchable fields, in the order of `kind.searchableFields` (empty text when absent).
    package var searchableValues: [String]
    /// Every other field of the input, with its JSON type, in input order.
    package var extraFields: [JSONMember]
    /// When the record was first stored; `nil` for a new record, which takes the time it is
    /// stored (an import keeps the `created_at` its input gives).
    package var createdAt: Timestamp?
    /// When the record was last changed; `nil` for a new record, which takes the time it is
    /// stored (an import keeps the `updated_at` its input gives).
    package var updatedAt: Timestamp?

    /// Creates a record; `searchableValues` must match `kind.searchableFields`.
    package init(
        kind: Kind, id: Int64? = nil, searchableValues: [String], extraFields: [JSONMember] = [],
        createdAt: Timestamp? = nil, updatedAt: Timestamp? = nil
    ) {
        precondition(
            searchableValues.count == kind.searchableFields.count,
            "a \(kind.singularNoun) has \(kind.searchableFields.count) searchable fields")
        self.kind = kind
        self.id = id
        self.searchableValues = searchableValues
        self.extraFields = extraFields
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The value of the searchable field `name` (`first_name`, `company`, `name`...).
    ///
    /// Setting a field the kind does not have is a programming error.
    package subscript(field name: String) -> String? {
        get { kind.searchableFields.firstIndex(of: name).map { searchableValues[$0] } }
        set {
            guard let position = kind.searchableFields.firstIndex(of: name) else {
                preconditionFailure("a \(kind.singularNoun) has no field \(name)")
            }
            searchableValues[position] = newValue ?? ""
        }
    }

    /// All fields as JSON members: searchable fields first, then the extra fields.
    package var allFields: [JSONMember] {
        zip(kind.searchableFields, searchableValues).map { JSONMember(key: $0, value: .string($1)) }
            + extraFields
    }

    /// The name to show for the record: "Anna Müller", "Rex".
    package var displayName: String {
        searchableValues.prefix(kind == .people ? 2 : 1).filter { !$0.isEmpty }.joined(
            separator: " ")
    }
}
