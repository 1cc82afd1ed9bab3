import FTSearchFormats
/// The JSON shapes of records and search results that `ftsearch` prints and `ftsearch serve`
/// answers with, defined once.
extension Record {
    /// `{"kind":"people","id":2,"fields":{...},"created_at":...,"updated_at":...}`: the shape of
    /// `ftsearch show --format json`, `add` and `update`.
    var jsonObject: JSONValue {
        .object([
            JSONMember(key: "kind", value: .string(kind.rawValue)),
            JSONMember(key: "id", value: .number(String(id ?? 0))),
            JSONMember(key: "fields", value: .object(allFields)),
            JSONMember(
                key: "created_at", value: createdAt.map { .string($0.description) } ?? .null),
            JSONMember(
                key: "updated_at", value: updatedAt.map { .string($0.description) } ?? .null),
        ])
    }
}

extension Record {
    /// `{"id":"2","first_name":...,"created_at":...,"updated_at":...}`: the record as one flat
    /// document, as `ftsearch export --format ndjson` writes it (and Meilisearch and Typesense
    /// load it): the id as a string, the searchable fields, the extra fields in their stored
    /// order, then the timestamps the record has.
    var documentMembers: [JSONMember] { documentMembers(idAsText: true) }

    /// The flat document, with the id as a string or as a number (`export --format json`).
    func documentMembers(idAsText: Bool) -> [JSONMember] {
        let id = String(id ?? 0)
        var members = [JSONMember(key: "id", value: idAsText ? .string(id) : .number(id))]
        members += allFields
        for (key, time) in [("created_at", createdAt), ("updated_at", updatedAt)] {
            if let time { members.append(JSONMember(key: key, value: .string(time.description))) }
        }
        return members
    }
}

extension AnyRecord {
    /// `{"kind":"people","id":2,"fields":{...},"created_at":...,"updated_at":...}`: the shape
    /// `ftsearch show --format json`, `add` and `update` print, and `GET /api/people/2`
    /// answers.
    public var jsonObject: JSONValue { record.jsonObject }

    /// The record of `kind` that `fields` describe, named as an import names them
    /// (`first_name`, `lastName`, `Company`, `name`, `id`, `created_at`, any extra field).
    ///
    /// ```swift
    /// let fields = [JSONMember(key: "firstName", value: .string("Ann"))]
    /// let ann = try AnyRecord(kind: .people, fields: fields)  // ann.person?.firstName == "Ann"
    /// ```
    ///
    /// - Throws: ``RecordStoreError/invalidRecord(kind:position:reason:)`` when a searchable
    ///   field is not a scalar, two fields give the same searchable field, the id is not an
    ///   integer, or the record has no name.
    public init(kind: Kind, fields: [JSONMember]) throws(RecordStoreError) {
        do {
            self.init(try FieldMapping.record(of: kind, from: fields))
        } catch {
            throw .invalidRecord(kind: kind, position: nil, reason: error.reason)
        }
    }
}

extension SearchHit {
    /// `{"kind","id","score","fields":{...}}`: one result of `ftsearch query --format json`.
    public var jsonMembers: [JSONMember] {
        [
            JSONMember(key: "kind", value: .string(record.kind.rawValue)),
            JSONMember(key: "id", value: record.id.map { .number(String($0)) } ?? .null),
            JSONMember(key: "score", value: .number(String(score))),
            JSONMember(key: "fields", value: .object(record.fields)),
        ]
    }
}

extension AnyRecord {
    /// The record as one flat document, as `ftsearch export --format ndjson` writes it (and
    /// Meilisearch and Typesense load it): the id as a string, the searchable fields, the extra
    /// fields in their stored order, then the timestamps.
    public var documentMembers: [JSONMember] { record.documentMembers }
}
