import FTSearchSQLite

/// Streams records from sources into the database in one transaction.
///
/// Records are mapped and written as they are read, so memory stays flat however large the
/// input. The first invalid record rolls everything back (unless `skipInvalid`), so an import
/// stores all of its records or none.
struct Importer {
    let database: Database
    let options: ImportOptions
    let timestamp: Timestamp
    var onSkip: (RecordProblem) -> Void = { _ in }
    var onProgress: (ImportProgress) -> Void = { _ in }
    /// Records between two progress reports.
    var progressInterval = 8192

    private var writers: [Kind: BulkWriter] = [:]
    private var roles = FieldMapping.RoleCache()
    /// The writer of the previous record: files rarely mix kinds.
    private var lastWriter: BulkWriter?
    private var summary = ImportSummary()
    private var recordsRead = 0
    private var bytesBeforeCurrentSource: Int64 = 0
    private var totalBytes: Int64?

    init(database: Database, options: ImportOptions, timestamp: Timestamp) {
        self.database = database
        self.options = options
        self.timestamp = timestamp
    }

    /// Imports every source, all or nothing.
    mutating func run(_ sources: [ImportSource]) throws -> ImportSummary {
        let sizes = sources.map(\.size)
        totalBytes = sizes.contains(nil) ? nil : sizes.reduce(0) { $0 + ($1 ?? 0) }
        try database.inTransaction(.immediate) {
            if options.replace, let kind = options.kind {
                _ = try writer(for: kind)
            }
            for var source in sources {
                try importRecords(from: &source)
                bytesBeforeCurrentSource += source.reader.bytesConsumed
            }
            reportProgress(0, isIndexing: true)
            for (kind, writer) in writers {
                try writer.finish()
                if writer.insertedCount > 0 {
                    summary.inserted[kind, default: 0] += writer.insertedCount
                }
                if writer.updatedCount > 0 {
                    summary.updated[kind, default: 0] += writer.updatedCount
                }
            }
        }
        return summary
    }

    private mutating func importRecords(from source: inout ImportSource) throws {
        var fileKind = options.kind
        while let sourceRecord = try nextRecord(from: &source) {
            recordsRead += 1
            if recordsRead % progressInterval == 0 { reportProgress(source.reader.bytesConsumed) }
            let kind = try kind(of: sourceRecord, in: source.path, fileKind: &fileKind)
            guard let kind else { continue }
            do {
                let record = try FieldMapping.record(
                    of: kind, from: sourceRecord.fields, roles: &roles)
                let writer = try writer(for: kind)
                switch try writer.write(record) {
                case .inserted: writer.insertedCount += 1
                case .updated: writer.updatedCount += 1
                }
            } catch let error as RecordValidationError {
                try skip(
                    RecordProblem(path: source.path, line: sourceRecord.line, reason: error.reason),
                    recoverable: true)
            }
        }
    }

    /// The next record of `source`, skipping (or failing on) malformed ones.
    private mutating func nextRecord(from source: inout ImportSource) throws -> SourceRecord? {
        while true {
            do {
                return try source.reader.nextRecord()
            } catch {
                if let inputError = error.inputError {
                    throw ImportError.unreadableInput(inputError)
                }
                let problem = RecordProblem(
                    path: source.path, line: error.line, column: error.column,
                    reason: error.reason)
                try skip(problem, recoverable: error.isRecoverable)
            }
        }
    }

    /// The kind of `record`: its section's, else the file's (given, or inferred from the first
    /// record). Returns nil when the record was skipped.
    private mutating func kind(of record: SourceRecord, in path: String, fileKind: inout Kind?)
        throws -> Kind?
    {
        if let section = record.section {
            guard let kind = Self.kind(forSection: section) else {
                try skip(
                    RecordProblem(
                        path: path, line: record.line,
                        reason: "unknown section \"\(section)\"; expected \"people\" or \"animals\""
                    ),
                    recoverable: true)
                return nil
            }
            return options.kind ?? kind
        }
        if let fileKind { return fileKind }
        guard let inferred = FieldMapping.inferredKind(fromFieldNames: record.fields.map(\.key))
        else {
            throw ImportError.unknownKind(path: path)
        }
        fileKind = inferred
        return inferred
    }

    private static func kind(forSection name: String) -> Kind? {
        switch FieldMapping.normalizedName(name) {
        case "people", "person", "persons": .people
        case "animals", "animal": .animals
        default: nil
        }
    }

    private mutating func skip(_ problem: RecordProblem, recoverable: Bool) throws {
        guard options.skipInvalid, recoverable else { throw ImportError.invalidRecord(problem) }
        summary.skipped += 1
        onSkip(problem)
    }

    private mutating func writer(for kind: Kind) throws -> BulkWriter {
        if let lastWriter, lastWriter.kind == kind { return lastWriter }
        if let writer = writers[kind] {
            lastWriter = writer
            return writer
        }
        let writer = try BulkWriter(kind: kind, database: database, timestamp: timestamp)
        try writer.begin(replacingAll: options.replace)
        writers[kind] = writer
        return writer
    }

    private func reportProgress(_ bytesOfCurrentSource: Int64, isIndexing: Bool = false) {
        onProgress(
            ImportProgress(
                recordsRead: recordsRead,
                bytesRead: bytesBeforeCurrentSource + bytesOfCurrentSource,
                totalBytes: totalBytes, isIndexing: isIndexing))
    }
}
