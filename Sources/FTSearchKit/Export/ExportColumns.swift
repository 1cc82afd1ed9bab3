import FTSearchFormats
import FTSearchSQLite

/// The columns of a CSV or TSV export of one kind: `id`, the searchable fields, one column per
/// extra field name, then `created_at` and `updated_at`.
///
/// Extra columns come in the order their names first appear, records in id order. A column is
/// plain text when every record has the field as text; otherwise it is a column of JSON values
/// (its header is the name with `:json` appended, see ``DelimitedTextReader``), where each cell is
/// the field's JSON text and an empty cell means the record has no such field. That keeps the
/// round trip exact: `42` stays a number, `"42"` text, a missing field missing. Knowing which
/// takes a first pass over the records' extra fields.
struct ExportColumns {
    /// One extra field name.
    struct ExtraColumn {
        var name: String
        var isJSON: Bool
    }

    let kind: Kind
    private(set) var extras: [ExtraColumn] = []
    private var positionByName: [String: Int] = [:]

    /// Plans the columns from every record's extra fields.
    ///
    /// - Throws: ``ExportError/duplicateField(kind:id:name:)`` for a record with two extra fields
    ///   of the same name.
    init(kind: Kind, database: Database) throws {
        self.kind = kind
        // Per column: how many records have the field, whether all of them as text, and the
        // last record that had it (to catch a name twice in one record).
        var presentCount: [Int] = []
        var isText: [Bool] = []
        var lastRecord: [Int] = []
        var recordCount = 0
        try database.makeStatement(sql: "SELECT id, extra FROM \(kind.tableName) ORDER BY id")
            .forEachRow { row in
                recordCount += 1
                for member in ExtraFields.decode(column: 1, of: row) {
                    let position = positionByName[member.key] ?? extras.count
                    if position == extras.count {
                        positionByName[member.key] = position
                        extras.append(ExtraColumn(name: member.key, isJSON: false))
                        presentCount.append(0)
                        isText.append(true)
                        lastRecord.append(0)
                    }
                    if lastRecord[position] == recordCount {
                        throw ExportError.duplicateField(
                            kind: kind, id: row.int64(at: 0), name: member.key)
                    }
                    lastRecord[position] = recordCount
                    presentCount[position] += 1
                    if case .string = member.value {} else { isText[position] = false }
                }
            }
        for position in extras.indices {
            let name = extras[position].name
            extras[position].isJSON =
                !isText[position] || presentCount[position] < recordCount || name.isEmpty
                || name.hasSuffix(DelimitedTextReader<CSVDialect>.jsonColumnSuffix)
        }
    }

    /// The header names, in column order.
    var headerNames: [String] {
        ["id"] + kind.searchableFields
            + extras.map {
                $0.isJSON ? $0.name + DelimitedTextReader<CSVDialect>.jsonColumnSuffix : $0.name
            }
            + ["created_at", "updated_at"]
    }

    /// The cells of `record`, in column order.
    func cells(of record: Record) -> [String] {
        var extraCells = extras.map { $0.isJSON ? "" : nil as String? }
        for member in record.extraFields {
            guard let position = positionByName[member.key] else { continue }
            extraCells[position] =
                extras[position].isJSON ? member.value.jsonText : member.value.scalarText
        }
        return [String(record.id ?? 0)] + record.searchableValues + extraCells.map { $0 ?? "" }
            + [record.createdAt?.description ?? "", record.updatedAt?.description ?? ""]
    }
}
