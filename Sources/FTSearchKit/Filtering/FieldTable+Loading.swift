import FTSearchSQLite

extension FieldTable {
    /// Reads every record of `kind` into columns, folding text with `tokenizer`: the
    /// searchable fields, `id`, `created_at`, `updated_at` and every extra field, nested
    /// objects (and objects in arrays) by dotted path.
    static func load(_ kind: Kind, from database: Database, tokenizer: FTS5Tokenizer) throws
        -> FieldTable
    {
        let highest =
            try database.cachedStatement(sql: "SELECT max(id) FROM \(kind.tableName)").firstRow {
                $0.isNull(at: 0) ? -1 : $0.int64(at: 0)
            } ?? -1
        let capacity = Int(max(highest + 1, 0))
        var records = RowSet(capacity: capacity)
        var builders: [String: ColumnBuilder] = [:]
        var folding = TextFolding(tokenizer: tokenizer)
        let searchable = kind.searchableFields
        let columns = searchable.joined(separator: ", ")
        let sql = """
            SELECT id, \(columns), extra, created_at, updated_at FROM \(kind.tableName) ORDER BY id
            """
        var values: [String: RowValues] = [:]
        try database.cachedStatement(sql: sql).forEachRow([]) { row in
            let rowid = row.int64(at: 0)
            guard rowid >= 0 else { return }
            records.insert(rowid)
            values.removeAll(keepingCapacity: true)
            values["id", default: RowValues()].add(.number(String(rowid)))
            for (offset, field) in searchable.enumerated() {
                values[field, default: RowValues()].add(
                    .string(row.text(at: Int32(1 + offset)) ?? ""))
            }
            let next = Int32(1 + searchable.count)
            for member in ExtraFields.decode(column: next, of: row) {
                Self.flatten(member.value, at: member.key, into: &values)
            }
            for (offset, field) in ["created_at", "updated_at"].enumerated() {
                let milliseconds = row.int64(at: next + 1 + Int32(offset))
                values[field, default: RowValues()].time = milliseconds
            }
            for (field, value) in values {
                if builders[field] == nil {
                    builders[field] = ColumnBuilder(
                        capacity: capacity, isTime: field == "created_at" || field == "updated_at")
                }
                builders[field]!.append(value, of: Int(rowid), folding: &folding)
            }
        }
        return FieldTable(
            kind: kind, records: records,
            columns: builders.mapValues { $0.finish(capacity: capacity) })
    }

    /// Adds `value`, found at `path`, and what it holds, to the record's `values`.
    private static func flatten(
        _ value: JSONValue, at path: String, into values: inout [String: RowValues]
    ) {
        values[path, default: RowValues()].add(value)
        switch value {
        case .object(let members):
            for member in members {
                flatten(member.value, at: path + "." + member.key, into: &values)
            }
        case .array(let elements):
            for element in elements {
                forEachObject(in: element) { members in
                    for member in members {
                        flatten(member.value, at: path + "." + member.key, into: &values)
                    }
                }
            }
        default: break
        }
    }

    private static func forEachObject(in value: JSONValue, _ body: ([JSONMember]) -> Void) {
        switch value {
        case .object(let members): body(members)
        case .array(let elements): for element in elements { forEachObject(in: element, body) }
        default: break
        }
    }
}

/// What one record holds at one path.
private struct RowValues {
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
struct TextFolding {
    let tokenizer: FTS5Tokenizer
    private var folded: [String: String] = [:]

    init(tokenizer: FTS5Tokenizer) {
        self.tokenizer = tokenizer
    }

    /// `text` folded as search folds it: `"  Zoë  O'Brien"` → `"zoe o'brien"`.
    mutating func fold(_ text: String) -> String {
        if let known = folded[text] { return known }
        let result = HistoryKey.normalize(text, tokenizer: tokenizer)
        if folded.count < 1_000_000 { folded[text] = result }
        return result
    }
}

/// Builds one ``FieldColumn`` record by record, in rowid order.
private struct ColumnBuilder {
    enum TermKey: Hashable {
        case text(String)
        case number(Double)
    }

    var flags: [UInt8]
    var starts: [Int32]
    var codes: [Int32] = []
    var terms: [FieldTerm] = []
    var termCodes: [TermKey: Int32] = [:]
    /// Codes by the text as written, sparing the folding of text seen before.
    var writtenCodes: [String: Int32] = [:]
    /// The rowids up to which ``starts`` is filled.
    var filled = 0
    let isTime: Bool

    init(capacity: Int, isTime: Bool) {
        flags = Array(repeating: 0, count: capacity)
        starts = Array(repeating: 0, count: capacity + 1)
        self.isTime = isTime
    }

    mutating func append(_ values: RowValues, of rowid: Int, folding: inout TextFolding) {
        fill(through: rowid)
        flags[rowid] = values.flags
        var mine: [Int32] = []
        if let time = values.time {
            let text = Timestamp(millisecondsSinceEpoch: time).description
            mine.append(code(for: .number(Double(time)), folded: text, display: text))
        }
        for scalar in values.scalars {
            let code: Int32
            switch scalar {
            case .number(let literal):
                if let number = Double(literal), number.isFinite {
                    code = self.code(for: .number(number), folded: literal, display: literal)
                } else {
                    code = text(literal, folding: &folding)
                }
            case .bool(let value): code = text(value ? "true" : "false", folding: &folding)
            case .string(let string): code = text(string, folding: &folding)
            default: continue
            }
            if !mine.contains(code) { mine.append(code) }
        }
        codes += mine
        starts[rowid + 1] = Int32(codes.count)
        filled = rowid + 1
    }

    private mutating func text(_ written: String, folding: inout TextFolding) -> Int32 {
        if let known = writtenCodes[written] { return known }
        let folded = folding.fold(written)
        let code = self.code(for: .text(folded), folded: folded, display: written)
        if writtenCodes.count < 1_000_000 { writtenCodes[written] = code }
        return code
    }

    private mutating func code(for key: TermKey, folded: String, display: String) -> Int32 {
        if let known = termCodes[key] { return known }
        let code = Int32(terms.count)
        var number: Double?
        if case .number(let value) = key { number = value }
        terms.append(FieldTerm(folded: folded, display: display, number: number))
        termCodes[key] = code
        return code
    }

    /// Gives the rowids after the last appended, through `rowid`, no codes.
    private mutating func fill(through rowid: Int) {
        while filled < rowid {
            starts[filled + 1] = Int32(codes.count)
            filled += 1
        }
    }

    consuming func finish(capacity: Int) -> FieldColumn {
        fill(through: capacity)
        return FieldColumn(flags: flags, starts: starts, codes: codes, terms: terms, isTime: isTime)
    }
}
