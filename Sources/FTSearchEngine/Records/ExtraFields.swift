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
        var parser = JSONParser()
        return decode(column: index, of: row, using: &parser)
    }

    /// The members of the stored JSON object in column `index` of `row`, parsed by `parser`:
    /// a page of hits parses its twenty with one parser, which keeps its buffers and the size
    /// of the last object between them.
    package static func decode(
        column index: Int32, of row: Statement, using parser: inout JSONParser
    ) -> [JSONMember] {
        let value =
            row.withBytes(at: index) { bytes -> JSONValue? in
                guard !bytes.elementsEqual("{}".utf8) else { return .object([]) }
                return try? parser.parseDocument(bytes)
            }
            ?? row.text(at: index).flatMap { try? JSONParser.parseDocument(Array($0.utf8)) }
        guard case .object(let members)? = value else { return [] }
        return members
    }
}
