/// The `extra` column: a record's non-searchable fields as one JSON object, in input order.
enum ExtraFields {
    /// The members of the stored JSON object; none when it is missing or not an object (which
    /// only a program other than ftsearch could have written).
    static func decode(_ text: String?) -> [JSONMember] {
        guard let text, text != "{}",
            case .object(let members)? = try? JSONParser.parseDocument(Array(text.utf8))
        else { return [] }
        return members
    }
}
