import FTSearchFormats
import Dispatch
import Synchronization

/// An import's sources read, checked and mapped to people and animals on a thread of their
/// own, a few batches ahead of the importer, which writes the records read before meanwhile.
///
/// Reading, mapping and encoding the records was about three fifths of a 10k CSV import's work
/// before the full-text index is filled (`callgrind`: about 150 M instructions against the
/// rows' writing's 95 M): on two cores the two overlap. What the reading finds
/// reaches the importer in input order (records, problems, progress) in batches of
/// ``batchSize``, at most ``queuedBatches`` of them waiting, so memory stays flat however large
/// the input.
///
/// The reading stops at the first problem nothing after which could be imported: an
/// unreadable input, a file of unknown kind, a malformed JSON array, or an invalid record
/// without `skipInvalid`. An importer that stops early calls ``stop()``: the reading ends at
/// its next batch, without the importer waiting for it (it may be waiting for input, such as a
/// request body), and touches nothing but its sources meanwhile.
final class RecordReadAhead: Sendable {
    /// What the reading found, in input order.
    enum Item: Sendable {
        /// A record, at this row of the batch's ``Batch/records``.
        case record(row: Int)
        /// A record of an import that keeps stored fields
        /// (``ImportOptions/keepsStoredFields``), as read: the importer merges it with the
        /// stored record of its id, on its own connection, before mapping it.
        case unmerged(SourceRecord, kind: Kind, path: String)
        /// A malformed or invalid record; the reading went on after it only when it is
        /// recoverable and the import skips invalid records.
        case problem(RecordProblem, isRecoverable: Bool)
        /// How far the reading has come: every `progressInterval` records, and once at the end
        /// (``ImportProgress/isIndexing``).
        case progress(ImportProgress)
        /// What ends the import: an unreadable input, or a file of unknown kind.
        case failure(ImportError)
    }

    /// Some items, and the records they name.
    struct Batch: Sendable {
        var items: [Item] = []
        var records = EncodedRecords()
    }

    static let batchSize = 256
    static let queuedBatches = 4

    private struct State {
        var batches: [Batch] = []
        var isStopped = false
    }

    private let state = Mutex(State())
    /// The map the records' sort codes are made with (see ``SortCodes``).
    private let sortCodeMap: SortCodeMap
    /// One signal per batch handed over, and one at the end.
    private let handedOver = DispatchSemaphore(value: 0)
    /// One signal per batch taken (and one when stopped): the reading waits for one before it
    /// hands a batch over. It starts at 0 and is signalled `queuedBatches` times: libdispatch
    /// traps when a semaphore is freed below the value it was created with, as this one is
    /// when the importer fails with batches still queued.
    private let room = DispatchSemaphore(value: 0)

    /// Starts reading `sources`, which the reading thread owns from now on, coding the
    /// records' sort names with `sortCodeMap`.
    ///
    /// The sources are `sending`: the compiler refuses a caller that keeps using what they
    /// hold, such as a reader that looks records up through the importer's own connection (an
    /// SQLite connection used from two threads at once breaks for good).
    init(
        reading sources: sending [ImportSource], options: ImportOptions, progressInterval: Int,
        sortCodeMap: SortCodeMap
    ) {
        self.sortCodeMap = sortCodeMap
        for _ in 0..<Self.queuedBatches { room.signal() }
        // Given up by the caller (`sending`), so this thread is their only user.
        let sources = UncheckedSendable(sources)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var batch = Filling(readAhead: self)
            read(sources.value, options: options, progressInterval: progressInterval, into: &batch)
            batch.finish()
        }
    }

    /// The next batch, waiting for it; nil at the end.
    func next() -> Batch? {
        handedOver.wait()
        let batch = state.withLock { state in
            state.batches.isEmpty ? nil : state.batches.removeFirst()
        }
        guard let batch else {
            handedOver.signal()  // the end stays the end
            return nil
        }
        room.signal()
        return batch
    }

    /// Tells the reading to end; batches not taken are dropped.
    func stop() {
        state.withLock { state in
            state.isStopped = true
            state.batches.removeAll()
        }
        room.signal()
    }

    /// The batch being filled on the reading thread.
    private struct Filling {
        let readAhead: RecordReadAhead
        var batch = Batch()

        /// Adds `item`, handing the batch over when full; false once the importer stopped.
        mutating func add(_ item: Item) -> Bool {
            batch.items.append(item)
            return batch.items.count < RecordReadAhead.batchSize || handOver()
        }

        /// Adds `record`; false once the importer stopped.
        mutating func add(_ record: Record) -> Bool {
            batch.records.append(record, codedBy: readAhead.sortCodeMap)
            return add(.record(row: batch.records.rows.count - 1))
        }

        /// Hands over what is left and marks the end.
        mutating func finish() {
            if !batch.items.isEmpty { _ = handOver() }
            readAhead.handedOver.signal()
        }

        private mutating func handOver() -> Bool {
            readAhead.room.wait()
            let full = batch
            batch = Batch()
            let isStopped = readAhead.state.withLock { state in
                if !state.isStopped { state.batches.append(full) }
                return state.isStopped
            }
            if !isStopped { readAhead.handedOver.signal() }
            return !isStopped
        }
    }

    /// Reads every source into `batch`, until the end, a problem that ends the import, or the
    /// importer stopping.
    private func read(
        _ sources: [ImportSource], options: ImportOptions, progressInterval: Int,
        into batch: inout Filling
    ) {
        let sizes = sources.map(\.size)
        let totalBytes = sizes.contains(nil) ? nil : sizes.reduce(0) { $0 + ($1 ?? 0) }
        var roles = FieldMapping.RoleCache()
        var recordsRead = 0
        var bytesOfEarlierSources: Int64 = 0
        for var source in sources {
            var fileKind = options.kind
            while true {
                let found: SourceRecord?
                do {
                    found = try source.reader.nextRecord()
                } catch {
                    if let inputError = error.inputError {
                        _ = batch.add(.failure(.unreadableInput(inputError)))
                        return
                    }
                    let problem = RecordProblem(
                        path: source.path, line: error.line, column: error.column,
                        reason: error.reason)
                    guard batch.add(.problem(problem, isRecoverable: error.isRecoverable)),
                        options.skipInvalid, error.isRecoverable
                    else { return }
                    continue
                }
                guard let found else { break }
                recordsRead += 1
                if recordsRead % progressInterval == 0 {
                    let progress = ImportProgress(
                        recordsRead: recordsRead,
                        bytesRead: bytesOfEarlierSources + source.reader.bytesConsumed,
                        totalBytes: totalBytes)
                    guard batch.add(.progress(progress)) else { return }
                }
                if let maximum = options.maximumFieldSize,
                    let reason = ImportOptions.oversizedField(
                        in: found.fields, maximumSize: maximum)
                {
                    let problem = RecordProblem(path: source.path, line: found.line, reason: reason)
                    guard batch.add(.problem(problem, isRecoverable: true)), options.skipInvalid
                    else { return }
                    continue
                }
                let problem: RecordProblem
                switch Self.kind(of: found, in: source.path, options: options, fileKind: &fileKind)
                {
                case .success(let kind) where options.keepsStoredFields:
                    guard batch.add(.unmerged(found, kind: kind, path: source.path)) else {
                        return
                    }
                    continue
                case .success(let kind):
                    do {
                        let record = try FieldMapping.record(
                            of: kind, from: found.fields, roles: &roles)
                        guard batch.add(record) else { return }
                        continue
                    } catch {
                        problem = RecordProblem(
                            path: source.path, line: found.line, reason: error.reason)
                    }
                case .failure(.invalidRecord(let invalid)):
                    problem = invalid
                case .failure(let error):
                    _ = batch.add(.failure(error))
                    return
                }
                guard batch.add(.problem(problem, isRecoverable: true)), options.skipInvalid
                else { return }
            }
            bytesOfEarlierSources += source.reader.bytesConsumed
        }
        _ = batch.add(
            .progress(
                ImportProgress(
                    recordsRead: recordsRead, bytesRead: bytesOfEarlierSources,
                    totalBytes: totalBytes, isIndexing: true)))
    }

    /// The kind of `record`: its section's, else the file's (given, or inferred from the first
    /// record). A section of another name makes the record invalid; a file whose first record
    /// tells no kind, the import.
    private static func kind(
        of record: SourceRecord, in path: String, options: ImportOptions, fileKind: inout Kind?
    ) -> Result<Kind, ImportError> {
        if let section = record.section {
            guard let kind = kind(forSection: section) else {
                return .failure(
                    .invalidRecord(
                        RecordProblem(
                            path: path, line: record.line,
                            reason:
                                "unknown section \"\(section)\"; expected \"people\" or \"animals\""
                        )))
            }
            return .success(options.kind ?? kind)
        }
        if let fileKind { return .success(fileKind) }
        guard let inferred = FieldMapping.inferredKind(fromFieldNames: record.fields.map(\.key))
        else {
            return .failure(.unknownKind(path: path))
        }
        fileKind = inferred
        return .success(inferred)
    }

    private static func kind(forSection name: String) -> Kind? {
        switch FieldMapping.normalizedName(name) {
        case "people", "person", "persons": .people
        case "animals", "animal": .animals
        default: nil
        }
    }
}
