public import FTSearchFormats
/// A person: a first name, a last name, a company, and any extra fields.
///
/// ```swift
/// var ann = Person(firstName: "Ann", lastName: "Lee", company: "Acme")
/// ann[extra: "age"] = .number("42")
/// ann = try index.insert(ann)  // now with an id and timestamps
/// ```
public struct Person: RecordModel {
    /// People.
    public static var kind: Kind { .people }

    /// The person's id; `nil` until stored.
    public var id: Int64?
    /// The first name (empty when unknown).
    public var firstName: String
    /// The last name (empty when unknown).
    public var lastName: String
    /// The company (empty when unknown).
    public var company: String
    /// The non-searchable fields, with their JSON types, in order.
    public var extra: [JSONMember]
    /// When the person was first stored.
    public var createdAt: Timestamp?
    /// When the person was last changed.
    public var updatedAt: Timestamp?

    /// Creates a person; a stored person needs a first or a last name.
    public init(
        id: Int64? = nil, firstName: String = "", lastName: String = "", company: String = "",
        extra: [JSONMember] = [], createdAt: Timestamp? = nil, updatedAt: Timestamp? = nil
    ) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.company = company
        self.extra = extra
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The person held by `record`, which must be of kind `people`.
    package init(_ record: Record) {
        precondition(record.kind == .people, "a person is made from a record of people")
        self.init(
            id: record.id, firstName: record.searchableValues[0],
            lastName: record.searchableValues[1], company: record.searchableValues[2],
            extra: record.extraFields, createdAt: record.createdAt, updatedAt: record.updatedAt)
    }

    /// The person, wrapped.
    public var anyRecord: AnyRecord { .person(self) }

    /// The person in `record`, when it holds one.
    public init?(_ record: AnyRecord) {
        guard case .person(let person) = record else { return nil }
        self = person
    }

    /// The person as positional fields.
    package var record: Record {
        Record(
            kind: .people, id: id, searchableValues: [firstName, lastName, company],
            extraFields: extra, createdAt: createdAt, updatedAt: updatedAt)
    }
}
