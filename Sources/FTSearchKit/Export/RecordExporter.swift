import FTSearchFormats
import FTSearchSQLite

/// Streams every record of some kinds, in id order, to a ``ByteSink`` in one of the formats
/// import reads, in constant memory: rows are read one at a time and written through a buffer
/// of ``bufferCapacity`` bytes.
///
/// - JSON: `{"people":[...],"animals":[...]}` with the selected kinds, one record per line.
/// - NDJSON: one record per line, flat, with the id as a string (as Typesense requires and
///   Meilisearch accepts), for one kind.
/// - CSV and TSV: a header row, then one row per record (see ``ExportColumns``), for one kind.
///
/// JSON records hold `id`, the searchable fields, the extra fields in their stored order, then
/// `created_at` and `updated_at`, which an import keeps.
struct RecordExporter {
    let database: Database
    let format: InputFormat
    let kinds: [Kind]
    let sink: any ByteSink
    private var buffer: [UInt8] = []
    private var summary = ExportSummary()

    /// Bytes gathered before they are written to the sink.
    static let bufferCapacity = 1 << 16

    init(database: Database, format: InputFormat, kinds: [Kind], sink: any ByteSink) throws {
        guard format == .json || kinds.count == 1 else { throw ExportError.oneKindPerFile(format) }
        self.database = database
        self.format = format
        self.kinds = kinds
        self.sink = sink
        buffer.reserveCapacity(Self.bufferCapacity + 4096)
    }

    /// Writes everything, reading one snapshot of the database.
    mutating func run() throws -> ExportSummary {
        try database.inTransaction(.deferred) {
            switch format {
            case .json: try writeJSONDocument()
            case .ndjson:
                try writeRecords(of: kinds[0]) { exporter, record in
                    exporter.appendObject(record, idAsText: true)
                    exporter.buffer.append(DelimitedByte.lineFeed)
                }
            case .csv: try writeDelimited(.csv)
            case .tsv: try writeDelimited(.tsv)
            }
            try flush()
        }
        return summary
    }

    private mutating func writeJSONDocument() throws {
        buffer.append(JSONByte.openBrace)
        for (index, kind) in kinds.enumerated() {
            append(index == 0 ? "" : ",\n")
            append("\"\(kind.rawValue)\":[")
            var isFirst = true
            try writeRecords(of: kind) { exporter, record in
                exporter.append(isFirst ? "\n" : ",\n")
                isFirst = false
                exporter.appendObject(record, idAsText: false)
            }
            append(isFirst ? "]" : "\n]")
        }
        append("}\n")
    }

    private mutating func writeDelimited(_ writer: DelimitedFieldWriter) throws {
        let columns = try ExportColumns(kind: kinds[0], database: database)
        writer.appendRow(columns.headerNames, to: &buffer)
        try writeRecords(of: kinds[0]) { exporter, record in
            writer.appendRow(columns.cells(of: record), to: &exporter.buffer)
        }
    }

    /// Calls `write` for every record of `kind` in id order, flushing the buffer as it fills.
    private mutating func writeRecords(
        of kind: Kind, _ write: (inout RecordExporter, Record) throws -> Void
    ) throws {
        let rows = RecordRows(kind: kind)
        var count = 0
        try database.makeStatement(sql: rows.selectSQL()).forEachRow([-1]) { row in
            try write(&self, rows.record(from: row))
            count += 1
            if buffer.count >= Self.bufferCapacity { try flush() }
        }
        summary.counts[kind] = count
    }

    /// `{"id":..., searchable fields, extra fields, "created_at":..., "updated_at":...}`.
    private mutating func appendObject(_ record: Record, idAsText: Bool) {
        JSONValue.writeObject(record.documentMembers(idAsText: idAsText), to: &buffer)
    }

    private mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    private mutating func flush() throws {
        defer { buffer.removeAll(keepingCapacity: true) }
        do {
            try buffer.withUnsafeBytes { try sink.write($0) }
        } catch let error as OutputError {
            throw ExportError.unwritableOutput(error)
        }
    }
}

/// What an export wrote.
public struct ExportSummary: Sendable, Equatable {
    /// Records written, per kind exported.
    public var counts: [Kind: Int] = [:]

    /// Creates an empty summary.
    public init() {}
}
