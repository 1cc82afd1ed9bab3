import FTSearchSQLite

/// The `extra` column: a record's non-searchable fields as one JSON object, in input order.
enum ExtraFields {
    /// The members of the stored JSON object in column `index` of `row`; none when it is NULL
    /// or not an object (which only a program other than ftsearch could have written). Parsed
    /// from SQLite's bytes: a page of hits decodes twenty, an export every record's. Text
    /// that is not UTF-8 is read as a `String` reads it, its bad bytes replaced.
    static func decode(column index: Int32, of row: Statement) -> [JSONMember] {
        let members = row.withBytes(at: index) { bytes -> [JSONMember]? in
            guard !bytes.elementsEqual("{}".utf8) else { return [] }
            var parser = JSONParser()
            guard case .object(let members)? = try? parser.parseDocument(bytes) else {
                return nil
            }
            return members
        }
        if let members { return members }
        guard let text = row.text(at: index),
            case .object(let members)? = try? JSONParser.parseDocument(Array(text.utf8))
        else { return [] }
        return members
    }
}
