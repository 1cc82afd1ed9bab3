package import FTSearchSQLite

/// The options an FTS5 index was created with, as far as reading its doclists depends on
/// them, from its `CREATE VIRTUAL TABLE` statement and its `%_config` table.
package struct IndexOptions {
    package let tokenizer: String
    /// The `prefix=` lengths, in the order of their indexes (key bytes `'1'`, `'2'`, ...).
    package let prefixLengths: [Int]

    /// Nil when the index is not one the doclist reader decodes: options other than
    /// `tokenize=`, `prefix=` and external content (`detail=`, `columnsize=`,
    /// `contentless_delete=`...), or a `%_config` version other than `formatVersion`. A statement's options are
    /// parsed once and kept with the connection, as its definition is (see
    /// ``FTSearchSQLite/Database/tableDefinition(named:)``).
    package init?(of index: String, in database: Database, formatVersion: Int) throws {
        guard
            let sql = try database.tableDefinition(named: index),
            let version = try database.cachedStatement(
                sql: "SELECT v FROM \"\(index)_config\" WHERE k = 'version'"
            ).firstRow([], { $0.int(at: 0) }), version == formatVersion
        else { return nil }
        let kept = database.kept(Kept.self) { Kept() }
        let options: IndexOptions?
        if let parsed = kept.byDefinition[sql] {
            options = parsed
        } else {
            options = Self(parsing: sql)
            kept.byDefinition[sql] = options
        }
        guard let options else { return nil }
        self = options
    }

    /// The options of the statement `sql`; nil for options the reader does not decode.
    private init?(parsing sql: String) {
        let lowered = sql.lowercased()
        guard
            !["detail", "columnsize", "contentless", "tokendata", "locale"].contains(where: {
                Self.offset(of: $0, in: lowered) != nil
            }),
            let tokenizer = Self.quotedOption("tokenize", in: sql),
            !tokenizer.contains(" ")
        else { return nil }
        let prefixes = Self.quotedOption("prefix", in: sql) ?? ""
        let lengths = prefixes.split(separator: " ").compactMap { Int($0) }
        guard lengths.count == prefixes.split(separator: " ").count else { return nil }
        self.tokenizer = tokenizer
        prefixLengths = lengths
    }

    /// The options a connection parsed, by statement (nil: not decoded).
    private final class Kept {
        var byDefinition: [String: IndexOptions?] = [:]
    }

    /// The value of `name='value'` in `sql`.
    private static func quotedOption(_ name: String, in sql: String) -> String? {
        let opening = name + "='"
        guard let offset = offset(of: opening, in: sql) else { return nil }
        let value = sql.utf8.dropFirst(offset + opening.utf8.count)
        guard let end = value.firstIndex(of: UInt8(ascii: "'")) else { return nil }
        return String(decoding: value[..<end], as: UTF8.self)
    }

    /// The UTF-8 offset of the first `pattern` in `text`, byte by byte (no Unicode matching).
    private static func offset(of pattern: String, in text: String) -> Int? {
        let (text, pattern) = (Array(text.utf8), Array(pattern.utf8))
        guard pattern.count <= text.count else { return nil }
        return (0...(text.count - pattern.count)).first { start in
            text[start..<start + pattern.count].elementsEqual(pattern)
        }
    }
}
