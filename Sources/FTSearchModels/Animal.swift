public import FTSearchFormats
/// An animal: a name, and any extra fields.
///
/// ```swift
/// var lion = Animal(name: "Lion")
/// lion[extra: "species"] = .string("Panthera leo")
/// lion = try index.insert(lion)  // now with an id and timestamps
/// ```
public struct Animal: RecordModel {
    /// Animals.
    public static var kind: Kind { .animals }

    /// The animal's id; `nil` until stored.
    public var id: Int64?
    /// The name; a stored animal needs one.
    public var name: String
    /// The non-searchable fields, with their JSON types, in order.
    public var extra: [JSONMember]
    /// When the animal was first stored.
    public var createdAt: Timestamp?
    /// When the animal was last changed.
    public var updatedAt: Timestamp?

    /// Creates an animal.
    public init(
        id: Int64? = nil, name: String = "", extra: [JSONMember] = [],
        createdAt: Timestamp? = nil, updatedAt: Timestamp? = nil
    ) {
        self.id = id
        self.name = name
        self.extra = extra
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The animal held by `record`, which must be of kind `animals`.
    package init(_ record: Record) {
        precondition(record.kind == .animals, "an animal is made from a record of animals")
        self.init(
            id: record.id, name: record.searchableValues[0], extra: record.extraFields,
            createdAt: record.createdAt, updatedAt: record.updatedAt)
    }

    /// The animal, wrapped.
    public var anyRecord: AnyRecord { .animal(self) }

    /// The animal in `record`, when it holds one.
    public init?(_ record: AnyRecord) {
        guard case .animal(let animal) = record else { return nil }
        self = animal
    }

    /// The animal as positional fields.
    package var record: Record {
        Record(
            kind: .animals, id: id, searchableValues: [name], extraFields: extra,
            createdAt: createdAt, updatedAt: updatedAt)
    }
}
