public import FTSearchFormats
/// A stored person or animal, as a search hands it out: switch on it for the typed model, or
/// read what every record has.
///
/// ```swift
/// for hit in try index.search(SearchRequest(text: "ann")).hits {
///     switch hit.record {
///     case .person(let person): print(person.firstName, person.company)
///     case .animal(let animal): print(animal.name)
///     }
/// }
/// ```
public enum AnyRecord: Sendable, Hashable {
    /// A person.
    case person(Person)
    /// An animal.
    case animal(Animal)

    /// Wraps a model of either kind.
    public init<Model: RecordModel>(_ model: Model) {
        self = model.anyRecord
    }

    /// Whether it is a person or an animal.
    public var kind: Kind {
        switch self {
        case .person: .people
        case .animal: .animals
        }
    }

    /// The record's id.
    public var id: Int64? {
        switch self {
        case .person(let person): person.id
        case .animal(let animal): animal.id
        }
    }

    /// The person, if it is one.
    public var person: Person? {
        guard case .person(let person) = self else { return nil }
        return person
    }

    /// The animal, if it is one.
    public var animal: Animal? {
        guard case .animal(let animal) = self else { return nil }
        return animal
    }

    /// Every field by its name: the searchable ones first (`first_name`, `last_name`,
    /// `company`; `name`), then the extra fields in input order — the `fields` object of
    /// `ftsearch query --format json`.
    public var fields: [JSONMember] { record.allFields }

    /// The value of the searchable field `name` (`first_name`, `company`, `name`...), or nil
    /// when the kind has no such field.
    public subscript(field name: String) -> String? { record[field: name] }

    /// The name to show for the record: "Anna Müller", "Rex".
    public var displayName: String { record.displayName }

    /// The non-searchable fields, with their JSON types, in input order.
    public var extra: [JSONMember] { record.extraFields }

    /// When the record was first stored.
    public var createdAt: Timestamp? { record.createdAt }

    /// When the record was last changed.
    public var updatedAt: Timestamp? { record.updatedAt }

    /// The record as positional fields, for storage and output.
    package var record: Record {
        switch self {
        case .person(let person): person.record
        case .animal(let animal): animal.record
        }
    }

    /// The typed record of positional fields.
    package init(_ record: Record) {
        switch record.kind {
        case .people: self = .person(Person(record))
        case .animals: self = .animal(Animal(record))
        }
    }
}
