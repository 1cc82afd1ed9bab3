package import FTSearchSQLite

extension FieldTable {
    /// The rowids of `kind`'s records, and the capacity columns of them need.
    static func loadRecords(of kind: Kind, from database: Database) throws -> RowSet {
        let highest =
            try database.cachedStatement(sql: "SELECT max(id) FROM \(kind.tableName)").firstRow {
                $0.isNull(at: 0) ? -1 : $0.int64(at: 0)
            } ?? -1
        var records = RowSet(capacity: Int(max(highest + 1, 0)))
        try database.cachedStatement(sql: "SELECT id FROM \(kind.tableName)").forEachRow([]) {
            records.insert($0.int64(at: 0))
        }
        return records
    }

    /// The column of `field` for every record of `kind` (rowids below `capacity`): `id`, a
    /// searchable field, `created_at`, `updated_at`, or an extra field by dotted path, read
    /// with SQLite's JSON operator (https://sqlite.org/json1.html#jptr) and followed through
    /// nested objects and arrays of objects. A field no record has gives a column of no
    /// values.
    static func loadColumn(
        _ field: String, of kind: Kind, capacity: Int, from database: Database,
        folding: inout TextFolding
    ) throws -> FieldColumn {
        let table = kind.tableName
        var builder = ColumnBuilder(
            capacity: capacity, isTime: field == "created_at" || field == "updated_at")
        func add(
            _ sql: String, _ arguments: StatementArguments = [], _ read: (Statement) -> RowValues?
        ) throws {
            try database.cachedStatement(sql: sql).forEachRow(arguments) { row in
                let rowid = row.int64(at: 0)
                guard rowid >= 0, rowid < capacity, let values = read(row) else { return }
                builder.append(values, of: Int(rowid), folding: &folding)
            }
        }
        if field == "id" {
            try add("SELECT id FROM \(table) ORDER BY id") { row in
                RowValues(scalars: [.number(String(row.int64(at: 0)))])
            }
        } else if kind.searchableFields.contains(field) {
            try database.cachedStatement(sql: "SELECT id, \(field) FROM \(table) ORDER BY id")
                .forEachRow([]) { row in
                    let rowid = row.int64(at: 0)
                    guard rowid >= 0, rowid < capacity else { return }
                    builder.appendText(row.text(at: 1) ?? "", of: Int(rowid), folding: &folding)
                }
        } else if builder.isTime {
            try add("SELECT id, \(field) FROM \(table) ORDER BY id") { row in
                RowValues(time: row.int64(at: 1))
            }
        } else {
            let components = field.split(separator: ".", omittingEmptySubsequences: false)
                .map(String.init)
            // The first key, followed through the rest; a key holding the dots itself too.
            var keys = [(components[0], components.dropFirst())]
            if components.count > 1 { keys.append((field, [])) }
            keys.removeAll { $0.0.contains("\"") || $0.0.isEmpty }
            guard !keys.isEmpty else { return builder.finish(capacity: capacity) }
            let selects = keys.indices.map { "extra -> ?\($0 + 1)" }.joined(separator: ", ")
            let arguments = StatementArguments(keys.map { "$.\"\($0.0)\"" })
            try add("SELECT id, \(selects) FROM \(table) ORDER BY id", arguments) { row in
                var values: RowValues?
                for (offset, key) in keys.enumerated() {
                    guard let text = row.text(at: Int32(1 + offset)),
                        let value = try? JSONParser.parseDocument(Array(text.utf8))
                    else { continue }
                    for found in resolve(value, key.1) {
                        if values == nil { values = RowValues() }
                        values!.add(found)
                    }
                }
                return values
            }
        }
        return builder.finish(capacity: capacity)
    }

    /// The values at `path` below `value`: through objects by key, through arrays element by
    /// element.
    private static func resolve(_ value: JSONValue, _ path: ArraySlice<String>) -> [JSONValue] {
        guard let key = path.first else { return [value] }
        switch value {
        case .object(let members):
            return members.filter { $0.key == key }.flatMap { resolve($0.value, path.dropFirst()) }
        case .array(let elements):
            return elements.flatMap { resolve($0, path) }
        default:
            return []
        }
    }
}

/// What one record holds at one path.
struct RowValues {
    var flags: UInt8 = FieldColumn.present
    var scalars: [JSONValue] = []
    /// For a time field: its milliseconds.
    var time: Int64?

    mutating func add(_ value: JSONValue) {
        switch value {
        case .null: flags |= FieldColumn.null
        case .string(let text) where text.isEmpty: flags |= FieldColumn.empty
        case .array(let elements) where elements.isEmpty: flags |= FieldColumn.empty
        case .object(let members) where members.isEmpty: flags |= FieldColumn.empty
        case .string, .number, .bool: scalars.append(value)
        case .array(let elements):
            for element in elements where element.isScalarOrArray { add(element) }
        case .object: break
        }
    }
}

extension JSONValue {
    fileprivate var isScalarOrArray: Bool {
        switch self {
        case .string, .number, .bool, .array: true
        case .null, .object: false
        }
    }
}

/// Folds text as the index folds it, each distinct text once.
package struct TextFolding {
    let tokenizer: FTS5Tokenizer
    private var folded: [String: String] = [:]

    package init(tokenizer: FTS5Tokenizer) {
        self.tokenizer = tokenizer
    }

    /// `text` folded as search folds it: `"  Zoë  O'Brien"` → `"zoe o'brien"`. ASCII text
    /// only loses case (and extra white space), which the tokenizer does to it.
    package mutating func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        if let known = folded[text] { return known }
        let result = HistoryKey.normalize(text, tokenizer: tokenizer)
        if folded.count < 1_000_000 { folded[text] = result }
        return result
    }
}
