import FTSearchFormats
import FTSearchSQLite

/// Streams records from sources into the database in one transaction.
///
/// Records are read, mapped and encoded on a thread of their own (``RecordReadAhead``) and
/// written here as they come, so memory stays flat however large the input. The first invalid
/// record rolls everything back (unless `skipInvalid`), so an import stores all of its records
/// or none.
struct Importer {
    let database: Database
    let options: ImportOptions
    let timestamp: Timestamp
    var onSkip: (RecordProblem) -> Void = { _ in }
    var onProgress: (ImportProgress) -> Void = { _ in }
    /// Records between two progress reports.
    var progressInterval = 8192
    /// How many records an import must bring, at least, to make the sort code map (see
    /// ``SortCodes/finishImport(inserted:replacingAll:codedWith:mapMinimum:in:)``).
    var sortCodeMapMinimum = SortCodeMap.minimumRecords

    private var writers: [Kind: BulkWriter] = [:]
    /// The writer of the previous record: files rarely mix kinds.
    private var lastWriter: BulkWriter?
    private var summary = ImportSummary()
    private var sortCodeMap = SortCodeMap.empty
    /// The roles of the field names of records merged here (see ``RecordReadAhead/Item``).
    private var roles = FieldMapping.RoleCache()

    init(database: Database, options: ImportOptions, timestamp: Timestamp) {
        self.database = database
        self.options = options
        self.timestamp = timestamp
    }

    /// Imports every source, all or nothing. The sources are read on a thread of their own.
    mutating func run(_ sources: sending [ImportSource]) throws -> ImportSummary {
        // Read before the transaction, as the reading begins before it: the finish sees when
        // the map changed meanwhile.
        sortCodeMap = try SortCodes.storedMap(in: database)
        let reading = RecordReadAhead(
            reading: sources, options: options, progressInterval: progressInterval,
            sortCodeMap: sortCodeMap)
        defer { reading.stop() }
        try database.inTransaction(.immediate) {
            if options.replace, let kind = options.kind {
                _ = try writer(for: kind)
            }
            while let batch = reading.next() {
                try write(batch)
            }
            for (kind, writer) in writers {
                try writer.finish()
                if writer.insertedCount > 0 {
                    summary.inserted[kind, default: 0] += writer.insertedCount
                }
                if writer.updatedCount > 0 {
                    summary.updated[kind, default: 0] += writer.updatedCount
                }
            }
            if !writers.isEmpty {
                try SortCodes.finishImport(
                    inserted: summary.inserted.values.reduce(0, +), replacingAll: options.replace,
                    codedWith: sortCodeMap, mapMinimum: sortCodeMapMinimum, in: database)
            }
        }
        return summary
    }

    /// Writes the items of `batch` in order, each run of records of one kind with one call, so
    /// that the writer writes them by multi-row statements (``BulkWriter/write(rows:of:)``).
    private mutating func write(_ batch: RecordReadAhead.Batch) throws {
        var run = 0..<0
        for item in batch.items {
            if case .record(let row) = item {
                if !run.isEmpty, row == run.upperBound,
                    batch.records.rows[row].kind == batch.records.rows[run.lowerBound].kind
                {
                    run = run.lowerBound..<row + 1
                    continue
                }
                try write(run, of: batch.records)
                run = row..<row + 1
            } else {
                try write(run, of: batch.records)
                run = 0..<0
                try write(item)
            }
        }
        try write(run, of: batch.records)
    }

    private mutating func write(_ rows: Range<Int>, of records: EncodedRecords) throws {
        guard let first = rows.first else { return }
        try writer(for: records.rows[first].kind).write(rows: rows, of: records)
    }

    /// Handles an item other than a record.
    private mutating func write(_ item: RecordReadAhead.Item) throws {
        switch item {
        case .record:
            preconditionFailure("records are written by runs")
        case .unmerged(let found, let kind, let path):
            let fields = try mergedWithStored(found.fields, of: kind)
            let record: Record
            do {
                record = try FieldMapping.record(of: kind, from: fields, roles: &roles)
            } catch {
                let problem = RecordProblem(path: path, line: found.line, reason: error.reason)
                return try skip(problem, isRecoverable: true)
            }
            _ = try writer(for: kind).write(record)
        case .problem(let problem, let isRecoverable):
            try skip(problem, isRecoverable: isRecoverable)
        case .progress(let progress):
            onProgress(progress)
        case .failure(let error):
            throw error
        }
    }

    /// Skips an invalid record, or ends the import with it.
    private mutating func skip(_ problem: RecordProblem, isRecoverable: Bool) throws {
        guard options.skipInvalid, isRecoverable else {
            throw ImportError.invalidRecord(problem)
        }
        summary.skipped += 1
        onSkip(problem)
    }

    /// `fields` completed with the stored fields of the record of their id, when there is one
    /// (``ImportOptions/keepsStoredFields``): read here, on the connection that writes, so that
    /// a record given twice is merged with what the first one wrote.
    /// A record without a valid id is returned as it is, for the mapping to report.
    private func mergedWithStored(_ fields: [JSONMember], of kind: Kind) throws -> [JSONMember] {
        guard
            let given = fields.first(where: {
                FieldMapping.role(ofField: $0.key, in: kind) == .id
            }),
            let id = try? FieldMapping.identifier(from: given.value),
            let stored = try RecordRows(kind: kind).record(withID: id, in: database)
        else { return fields }
        return FieldMapping.fields(fields, completedFrom: stored)
    }

    private mutating func writer(for kind: Kind) throws -> BulkWriter {
        if let lastWriter, lastWriter.kind == kind { return lastWriter }
        if let writer = writers[kind] {
            lastWriter = writer
            return writer
        }
        let writer = try BulkWriter(kind: kind, database: database, timestamp: timestamp)
        writer.sortCodeMap = sortCodeMap
        try writer.begin(replacingAll: options.replace)
        writers[kind] = writer
        return writer
    }
}
