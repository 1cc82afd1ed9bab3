import FTSearchFormats
package import FTSearchSQLite

/// The `extra` column: a record's non-searchable fields as one JSON object, in input order.
package enum ExtraFields {
    /// The members of the stored JSON object in column `index` of `row`; none when it is NULL
    /// or not an object (which only a program other than ftsearch could have written). Parsed
    /// from SQLite's bytes: a page of hits decodes twenty, an export every record's. Text
    /// that does not parse there (it is not UTF-8) is read as a `String` reads it, its bad
    /// bytes replaced.
    package static func decode(column index: Int32, of row: Statement) -> [JSONMember] {
        let value =
            row.withBytes(at: index) { bytes -> JSONValue? in
                guard !bytes.elementsEqual("{}".utf8) else { return .object([]) }
                var parser = JSONParser()
                return try? parser.parseDocument(bytes)
            }
            ?? row.text(at: index).flatMap { try? JSONParser.parseDocument(Array($0.utf8)) }
        guard case .object(let members)? = value else { return [] }
        return members
    }
}
