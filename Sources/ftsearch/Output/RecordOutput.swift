import FTSearchKit

/// One whole record as `ftsearch show`, `add` and `update` print it.
enum RecordOutput {
    /// `{"kind":"people","id":2,"fields":{...},"created_at":...,"updated_at":...}`: the shape of
    /// a `query --format json` result, without the score, with the timestamps.
    static func jsonObject(for record: AnyRecord) -> String {
        record.jsonObject.jsonText
    }

    /// A two-column table of field names and values: text as it is, other JSON values as JSON.
    static func table(for record: AnyRecord) -> String {
        var table = TextTable(headers: ["field", "value"])
        table.showsHeaders = false
        table.append(plain: ["id", String(record.id ?? 0)])
        for member in record.fields {
            table.append(plain: [member.key, member.value.scalarText ?? member.value.jsonText])
        }
        table.append(plain: ["created_at", record.createdAt?.description ?? ""])
        table.append(plain: ["updated_at", record.updatedAt?.description ?? ""])
        return table.rendered()
    }
}
