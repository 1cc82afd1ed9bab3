import FTSearchFormats
/// The JSON shapes of records and search results that `ftsearch` prints and `ftsearch serve`
/// answers with, defined once.
extension Record {
    /// `{"kind":"people","id":2,"fields":{...},"created_at":...,"updated_at":...}`: the shape of
    /// `ftsearch show --format json`, `add` and `update`.
    package var jsonObject: JSONValue {
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
    package var documentMembers: [JSONMember] { documentMembers(idAsText: true) }

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
