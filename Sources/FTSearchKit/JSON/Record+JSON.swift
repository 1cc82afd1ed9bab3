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
