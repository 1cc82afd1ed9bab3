public import FTSearchFormats
/// A person or an animal as a typed value: what the store API of ``SearchIndex`` reads and
/// writes (see ``SearchIndex/insert(_:)-(Model)``).
///
/// A model made in code has no id and no timestamps until it is stored; the store returns the
/// stored copy with all three set.
public protocol RecordModel: Identifiable, Hashable, Sendable, Codable where ID == Int64? {
    /// The kind of record the model holds.
    static var kind: Kind { get }
    /// The record's id; `nil` until it is stored (or to let the store choose one).
    var id: Int64? { get set }
    /// The non-searchable fields, with their JSON types, in order.
    var extra: [JSONMember] { get set }
    /// When the record was first stored.
    var createdAt: Timestamp? { get set }
    /// When the record was last changed.
    var updatedAt: Timestamp? { get set }
    /// The model, as a person or an animal.
    var anyRecord: AnyRecord { get }
    /// The model in `record`; nil when it holds the other kind.
    init?(_ record: AnyRecord)
}

extension RecordModel {
    /// The value of the extra field `key`; setting `nil` removes the field, setting a new field
    /// appends it, setting an existing one replaces its value in place.
    ///
    /// ```swift
    /// person[extra: "age"] = .number("42")
    /// person[extra: "tags"] = .array([.string("founder")])
    /// ```
    public subscript(extra key: String) -> JSONValue? {
        get { extra.first { $0.key == key }?.value }
        set {
            guard let newValue else {
                extra.removeAll { $0.key == key }
                return
            }
            if let position = extra.firstIndex(where: { $0.key == key }) {
                extra[position].value = newValue
            } else {
                extra.append(JSONMember(key: key, value: newValue))
            }
        }
    }

    /// Decodes `{"id": 1, "first_name": ..., "extra": {...}, "created_at": ..., "updated_at": ...}`;
    /// every member may be missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldKey.self)
        let values = try Self.kind.searchableFields.map {
            try container.decodeIfPresent(String.self, forKey: FieldKey($0)) ?? ""
        }
        var extra: [JSONMember] = []
        if case .object(let members)? = try container.decodeIfPresent(
            JSONValue.self, forKey: FieldKey("extra"))
        {
            extra = members
        }
        self.init(
            fields: Record(
                kind: Self.kind,
                id: try container.decodeIfPresent(Int64.self, forKey: FieldKey("id")),
                searchableValues: values, extraFields: extra,
                createdAt: try container.decodeIfPresent(
                    Timestamp.self, forKey: FieldKey("created_at")),
                updatedAt: try container.decodeIfPresent(
                    Timestamp.self, forKey: FieldKey("updated_at"))))
    }

    /// Encodes the shape ``init(from:)`` decodes, leaving out a missing id and timestamps.
    public func encode(to encoder: any Encoder) throws {
        let record = anyRecord.record
        var container = encoder.container(keyedBy: FieldKey.self)
        try container.encodeIfPresent(record.id, forKey: FieldKey("id"))
        for (field, value) in zip(Self.kind.searchableFields, record.searchableValues) {
            try container.encode(value, forKey: FieldKey(field))
        }
        try container.encode(JSONValue.object(record.extraFields), forKey: FieldKey("extra"))
        try container.encodeIfPresent(record.createdAt, forKey: FieldKey("created_at"))
        try container.encodeIfPresent(record.updatedAt, forKey: FieldKey("updated_at"))
    }
}

extension RecordModel {
    /// The value of the searchable field `name` (`first_name`, `last_name`, `company`;
    /// `name`), for code generic over the kind; setting `nil` empties it.
    ///
    /// ```swift
    /// var model = Person(emptyOf: .people)
    /// model[field: "company"] = "Acme"
    /// ```
    ///
    /// Reading a field the kind does not have gives nil; setting one is a programming error.
    public subscript(field name: String) -> String? {
        get { record[field: name] }
        set {
            var record = self.record
            record[field: name] = newValue
            self = Self(fields: record)
        }
    }

    /// A model with every searchable field empty, no extra fields, no id and no timestamps,
    /// for code generic over the kind to fill in with ``subscript(field:)``.
    public init(emptyOf kind: Kind = Self.kind) {
        precondition(kind == Self.kind, "a \(Self.kind.singularNoun) is made of its own kind")
        self.init(
            fields: Record(
                kind: kind, searchableValues: Self.kind.searchableFields.map { _ in "" }))
    }

    /// The model of positional fields of its kind.
    package init(fields record: Record) {
        precondition(
            record.kind == Self.kind, "a \(Self.kind.singularNoun) is made from its own kind")
        self.init(AnyRecord(record))!
    }

    /// The model as positional fields.
    package var record: Record { anyRecord.record }
}

extension Kind {
    /// The model of this kind's records: ``Person`` or ``Animal``.
    ///
    /// ```swift
    /// try index.find(kind.modelType, id: 3)?.anyRecord  // a person or an animal
    /// ```
    public var modelType: any RecordModel.Type {
        switch self {
        case .people: Person.self
        case .animals: Animal.self
        }
    }
}
