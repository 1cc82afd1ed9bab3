import Dispatch
import FTSearchSQLite
import Synchronization

/// One database shared by many tasks at once: searches run in parallel, each on a connection
/// of its own, while changes run one at a time on a single writer — the model of GRDB's
/// `DatabasePool`, on SQLite's WAL promises (https://sqlite.org/wal.html): readers never block
/// the writer and are never blocked by it, and each read sees the database as the last commit
/// before it began left it.
///
/// ```swift
/// let pool = try SearchIndexPool(path: "people.sqlite")
/// async let ann = pool.search(SearchRequest(text: "ann"))
/// async let bob = pool.search(SearchRequest(text: "bob"))
/// let added = try await pool.write { try $0.insert(Person(firstName: "Ann", lastName: "Lee")) }
/// print(try await ann.total, try await bob.total, added.id ?? 0)
/// ```
///
/// A ``SearchIndex`` is not `Sendable`: the pool hands each one to one closure at a time, on a
/// thread of its own, so a closure must not keep the index it is given. Work runs on Dispatch
/// threads, never on the caller's: a long search or import does not hold up the Swift
/// concurrency pool. ``search(_:)`` stops the search when its task is cancelled.
public final class SearchIndexPool: Sendable {
    /// The database file.
    public let path: String
    /// Why the database can only be read, or nil when the pool may change it.
    public let readOnlyReason: ReadOnlyReason?
    /// The most searches that run at once; more wait for a connection.
    public let maximumReaders: Int
    /// How much memory each connection uses for the file; nil for what a ``SearchIndex``
    /// uses (up to a gigabyte mapped).
    public let memoryLimits: ConnectionMemoryLimits?

    /// The one writer, replaced after a failure that may have left it broken.
    private let writer: Mutex<Connection>
    private let idleReaders = Mutex<[Connection]>([])
    private let readerSlots: DispatchSemaphore
    /// The rankings and vocabularies searches keep, shared by every connection.
    private let memory = SearchMemory()
    private let clock: @Sendable () -> Timestamp
    private let queue = DispatchQueue(label: "ftsearch.pool", attributes: .concurrent)
    /// How many times work went to the pool's threads (reads and writes): what the tests that
    /// hold a search over HTTP to one trip count.
    private let trips = Atomic<Int>(0)

    /// How many reads and writes the pool has run.
    var tripCount: Int { trips.load(ordering: .relaxed) }

    /// Opens (creating and migrating it if needed, unless `readOnly`) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - readOnly: Whether to open it for reading only: every change then throws
    ///     ``ReadOnlyDatabaseError``, and a missing file is not created.
    ///   - maximumReaders: The most searches that run at once, each on its own connection
    ///     (opened when first needed).
    ///   - memoryLimits: How much memory each connection uses for the file; nil for what a
    ///     ``SearchIndex`` uses (up to a gigabyte mapped, which a long-running process that
    ///     should stay small does not want: see ``ConnectionMemoryLimits``).
    ///   - clock: The current time, for timestamps.
    /// - Throws: What ``SearchIndex/init(path:mode:clock:lockWaiting:onMigrationProgress:)`` throws.
    public init(
        path: String, readOnly: Bool = false, maximumReaders: Int = 4,
        memoryLimits: ConnectionMemoryLimits? = nil,
        clock: @escaping @Sendable () -> Timestamp = Timestamp.now
    ) throws {
        precondition(maximumReaders > 0, "a pool needs at least one reader")
        let index = try SearchIndex(
            path: path, mode: readOnly ? .readOnly : .createIfMissing, clock: clock)
        self.path = path
        self.readOnlyReason = index.readOnlyReason
        self.maximumReaders = maximumReaders
        self.memoryLimits = memoryLimits
        self.clock = clock
        writer = Mutex(Connection(index))
        try Self.prepareWriter(index, memoryLimits: memoryLimits, memory: memory)
        readerSlots = DispatchSemaphore(value: maximumReaders)
    }

    /// Runs `body` with a connection of its own that reads the database: searches, finds,
    /// suggestions, exports. Many run at once; each sees the last commit before it began.
    ///
    /// The index given to `body` refuses changes (``ReadOnlyDatabaseError``): use
    /// ``write(_:)`` for them.
    public func read<T: Sendable>(
        _ body: @escaping @Sendable (SearchIndex) throws -> T
    ) async throws -> T {
        try await onPoolThread { [self] in
            readerSlots.wait()
            defer { readerSlots.signal() }
            let reader = try idleReaders.withLock { $0.popLast() } ?? makeReader()
            do {
                let result = try body(reader.index)
                idleReaders.withLock { $0.append(reader) }
                return result
            } catch {
                // A connection SQLite called broken is closed, not kept: the next read opens
                // a new one.
                if !Self.mayHaveBroken(by: error) { idleReaders.withLock { $0.append(reader) } }
                throw error
            }
        }
    }

    /// Runs `body` on the pool's one writer: inserts, updates, deletes, imports, history
    /// entries, maintenance. Writes run one at a time, in the order they were asked for; a
    /// write that `body` makes is committed (durably) when its method returns.
    public func write<T: Sendable>(
        _ body: @escaping @Sendable (SearchIndex) throws -> T
    ) async throws -> T {
        try await onPoolThread { [self] in
            try writer.withLock { writer in
                do {
                    return try body(writer.index)
                } catch {
                    // The next write gets a connection of its own, so that one broken
                    // connection does not fail every write until the process restarts.
                    if Self.mayHaveBroken(by: error), let fresh = try? makeWriter() {
                        writer = fresh
                    }
                    throw error
                }
            }
        }
    }

    /// Searches on a reader connection; cancelling the task stops the search (it throws
    /// `CancellationError`). An index the search needs and the database lacks (the substring
    /// index, before the first substring search) is built first, by the writer.
    public func search(_ request: SearchRequest) async throws -> SearchResults {
        try await search(request) { _, results in results }
    }

    /// Searches on a reader connection, then runs `body` with that connection and the results
    /// (to highlight them, to read more of the records): one trip to the pool, the search and
    /// `body` reading one connection. Cancelling the task stops the search (it throws
    /// `CancellationError`). An index the search needs and the database lacks (the substring
    /// index, before the first substring search) is built first, by the writer.
    ///
    /// ```swift
    /// let pool = try SearchIndexPool(path: "people.sqlite")
    /// let matched = try await pool.search(SearchRequest(text: "ann")) { index, results in
    ///     let highlighter = try index.highlighter(for: results)
    ///     return results.hits.map { hit in
    ///         highlighter.matchedRanges(in: hit.record[field: "first_name"] ?? "")
    ///     }.count
    /// }
    /// ```
    public func search<T: Sendable>(
        _ request: SearchRequest,
        then body: @escaping @Sendable (SearchIndex, SearchResults) throws -> T
    ) async throws -> T {
        try await reading(indexesFor: request) { index, cancellation in
            try body(index, try index.search(request, cancellation: cancellation))
        }
    }

    /// Runs `body` on a reader connection on which the indexes that `request`'s match mode
    /// needs exist (the writer builds one the database lacks first, such as the substring
    /// index before the first substring search), with a cancellation that cancelling the task
    /// raises: for several searches of one mode in one trip to the pool, each given the
    /// cancellation (``SearchIndex/search(_:cancellation:)``).
    public func reading<T: Sendable>(
        indexesFor request: SearchRequest,
        _ body: @escaping @Sendable (SearchIndex, SearchCancellation) throws -> T
    ) async throws -> T {
        // A pool that cannot write searches an index an older ftsearch built as it is.
        let replacesOutdated = readOnlyReason == nil
        let cancellation = SearchCancellation()
        @Sendable func answer(_ index: SearchIndex) throws -> T? {
            guard try !index.lacksIndexes(for: request, replacingOutdated: replacesOutdated)
            else { return nil }
            return try body(index, cancellation)
        }
        return try await withTaskCancellationHandler {
            if let answer = try await read(answer) { return answer }
            try await write { try $0.prepareIndexes(for: request) }
            return try await read { index in try body(index, cancellation) }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// The writer's settings: its memory limits, the pool's kept rankings, and the history
    /// file made before any reader opens it, so that every reader reads it through its -shm
    /// file and sees what the writer records later.
    private static func prepareWriter(
        _ index: SearchIndex, memoryLimits: ConnectionMemoryLimits?, memory: SearchMemory
    ) throws {
        if let memoryLimits { try index.limitMemory(memoryLimits) }
        if index.readOnlyReason == nil { _ = try index.historyDatabase }
        index.memory = memory
    }

    /// A new writer connection, as the pool opened its first.
    private func makeWriter() throws -> Connection {
        let index = try SearchIndex(
            path: path, mode: readOnlyReason == nil ? .createIfMissing : .readOnly, clock: clock)
        try Self.prepareWriter(index, memoryLimits: memoryLimits, memory: memory)
        return Connection(index)
    }

    /// Whether `error`, thrown by work on a connection, may have left the connection unusable:
    /// SQLite called the file damaged or not a database, or an I/O operation failed (a
    /// connection can keep such a state for every later statement); such a connection is
    /// closed instead of kept.
    private static func mayHaveBroken(by error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return error.isCorruption || error.code == .ioError
    }

    /// A new reader connection: beside the writer of this process, one that may keep caches;
    /// on a database this process cannot write, one opened for reading only.
    private func makeReader() throws -> Connection {
        let reader: SearchIndex
        if readOnlyReason != nil {
            reader = try SearchIndex(path: path, mode: .readOnly, clock: clock)
        } else {
            reader = SearchIndex(
                path: path, database: try SearchIndex.openReaderConnection(at: path),
                readOnlyReason: .openedForReading, clock: clock)
            reader.readsBesideWriter = true
        }
        reader.memory = memory
        if let memoryLimits { try reader.limitMemory(memoryLimits) }
        return Connection(reader)
    }

    /// Runs `work` on a Dispatch thread and resumes the caller with its result.
    private func onPoolThread<T: Sendable>(
        _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        trips.add(1, ordering: .relaxed)
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// A connection the pool hands to one closure at a time (which is what makes moving it
    /// between threads safe).
    private final class Connection: @unchecked Sendable {
        let index: SearchIndex
        init(_ index: SearchIndex) { self.index = index }
    }
}
