public import FTSearchSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ftsearch database: people, animals, their full-text indexes and the search history.
///
/// The entry point of the library:
/// ```swift
/// let index = try SearchIndex(path: "people.sqlite")
/// let summary = try index.importRecords(
///     from: ImportSource.open(["people.csv"]), options: ImportOptions())
/// let page = try index.search(SearchRequest(text: "ann"))
/// print(summary.inserted[.people] ?? 0, page.total, page.hits.map(\.record.displayName))
///
/// let ann = try index.insert(Person(firstName: "Ann", lastName: "Lee", company: "Acme"))
/// try index.update(Person.self, id: ann.id!) { $0.company = "Initech" }
/// try index.delete(Person.self, ids: [ann.id!])
/// try index.export(.all, as: .json, toFile: "backup.json")
/// ```
///
/// The store API (``insert(_:)-(Model)``, ``update(_:id:_:)``, ``delete(_:ids:)``,
/// ``find(_:id:)``, ``findAll(_:after:limit:)``, ``count(_:)``) and ``export(_:as:to:)`` are
/// documented in `SearchIndex+Records.swift` and `SearchIndex+Export.swift`.
///
/// Not `Sendable`: open one per thread or process, or share one database between tasks with
/// ``SearchIndexPool`` (parallel readers, one writer). Any number of processes can use the same
/// file at once: the database is in WAL mode, so searches never wait, and a change waits for
/// another process's change as its `lockWaiting` says; the history is a file of its own
/// (`HistoryFile`), so recording a search waits for no change to the records.
public final class SearchIndex {
    /// Whether opening may create the database file.
    public enum OpenMode: Sendable {
        /// Create the file (and its folders) when missing.
        case createIfMissing
        /// Fail with ``DatabaseOpenError/missing(path:)`` when the file does not exist.
        case existingOnly
        /// Read the existing file and change nothing: no file is created, no schema migrated,
        /// no search logged (``readOnlyReason`` is ``ReadOnlyReason/openedForReading``). For
        /// quick lookups, such as shell completion, that must never start an upgrade; a
        /// database whose schema needs one throws ``ReadOnlyDatabaseError``.
        case readOnly
    }

    /// The path of the database file.
    public let path: String
    /// Why this process can only read the database, or nil when it can change it. Changes then
    /// throw ``ReadOnlyDatabaseError`` before writing anything.
    public let readOnlyReason: ReadOnlyReason?
    let database: Database
    let clock: @Sendable () -> Timestamp
    /// How this index's connections wait for another process's write lock.
    let lockWaiting: LockWaiting
    /// The history's own database (see ``HistoryFile``), opened when first needed.
    private var historyConnection: Database?
    /// Whether this index only reads, beside a writer of the same process that records
    /// searches (a ``SearchIndexPool`` reader).
    var readsBesideWriter = false
    /// A second connection that ranks half of a large table in parallel (see ``RankingHelper``).
    var rankingHelper = RankingHelper.Slot.notNeededYet
    /// Searches whose ranking takes at least this long keep it for the next identical search
    /// (see ``ResultCache``); nil keeps none.
    var resultCacheMinimumCost: Duration? = ResultCache.defaultMinimumCost
    /// Whether searches rank from FTS5's doclists where they can (see ``DoclistRanking``).
    var readsDoclists = true
    /// What searches keep in memory that this index shares with the other connections of its
    /// process (a ``SearchIndexPool``'s), in front of the database's; nil for none.
    var memory: SearchMemory?
    /// The records' fields for filters, facets and sort, kept when there is no ``memory``.
    let fieldTables = FieldTableCache()
    /// What the variant lookups of searches found, kept when there is no ``memory``.
    let variantGates = VariantGates()
    /// How much memory this index's connections use for the file, when not what every
    /// connection starts with (see ``limitMemory(_:)``).
    private(set) var memoryLimits: ConnectionMemoryLimits?

    /// Opens (and if needed creates and migrates) the database at `path`.
    ///
    /// A database this process may read but not write (another user's file, a read-only folder
    /// or mount) is opened for reading only: see ``readOnlyReason``.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - mode: Whether a missing file is created.
    ///   - clock: The current time, for timestamps (tests pass a fixed one).
    ///   - lockWaiting: How a change waits while another process writes the database (in WAL
    ///     mode a search never waits): as long as it takes, by default, or not at all, failing
    ///     with ``DatabaseBusyError``.
    ///   - onMigrationProgress: Hears how far a migration that re-indexes every record has
    ///     come (records done, and as bytes the records done out of all records), so a
    ///     command can show the import's progress line.
    /// - Throws: ``DatabaseOpenError`` when the file is missing, is not an ftsearch database,
    ///   comes from a newer version, or cannot be read; ``ReadOnlyDatabaseError`` when a
    ///   read-only database needs a schema upgrade; ``SQLiteError`` when SQLite fails.
    public convenience init(
        path: String, mode: OpenMode = .createIfMissing,
        clock: @escaping @Sendable () -> Timestamp = Timestamp.now,
        lockWaiting: LockWaiting = .untilFree,
        onMigrationProgress: (ImportProgress) -> Void = { _ in }
    ) throws {
        if access(path, F_OK) != 0 {
            guard mode == .createIfMissing else { throw DatabaseOpenError.missing(path: path) }
            try Self.createParentDirectories(of: path)
        }
        let (database, readOnlyReason) = try Self.openConnection(
            at: path, readingOnly: mode == .readOnly, lockWaiting: lockWaiting,
            onMigrationProgress: onMigrationProgress)
        self.init(
            path: path, database: database, readOnlyReason: readOnlyReason, clock: clock,
            lockWaiting: lockWaiting)
    }

    /// An index on an open, prepared connection.
    init(
        path: String, database: Database, readOnlyReason: ReadOnlyReason?,
        clock: @escaping @Sendable () -> Timestamp, lockWaiting: LockWaiting = .untilFree
    ) {
        self.path = path
        self.clock = clock
        self.lockWaiting = lockWaiting
        self.database = database
        self.readOnlyReason = readOnlyReason
        if database.mode == .immutable {
            // A second connection would open the file without `immutable`, and fail to read it.
            rankingHelper = .unavailable
        }
    }

    deinit {
        // The helper's connection closes first, so that the main one closes last and its
        // durability decides whether closing checkpoints (see Database.Durability).
        rankingHelper = .unavailable
    }

    /// Uses `limits` on this index's connections (its ranking helper's too) instead of the
    /// gigabyte every connection maps (see ``ConnectionMemoryLimits``) and SQLite's 2 MiB page cache.
    public func limitMemory(_ limits: ConnectionMemoryLimits) throws {
        memoryLimits = limits
        try limits.apply(to: database)
        if case .open(let helper) = rankingHelper {
            try helper.start { try limits.apply(to: $0) }.wait()
        }
    }

    /// Throws unless this process can change the database.
    ///
    /// - Parameters:
    ///   - change: What is about to be written, as a verb phrase for the error.
    ///   - advice: What the user can do instead, for the error.
    func requireWriteAccess(for change: String, advice: String? = nil)
        throws(ReadOnlyDatabaseError)
    {
        if let readOnlyReason {
            throw ReadOnlyDatabaseError(
                path: path, reason: readOnlyReason, change: change, advice: advice)
        }
    }

    /// The connection to the history's own file (see ``HistoryFile``).
    var historyDatabase: Database {
        get throws {
            if let historyConnection { return historyConnection }
            let access: HistoryFile.Access =
                readOnlyReason == nil ? .write : readsBesideWriter ? .readBesideWriter : .read
            let connection = try HistoryFile.open(
                forDatabaseAt: path, access: access, waiting: lockWaiting)
            historyConnection = connection
            return connection
        }
    }

    /// The tokenizer of the index, to split and fold text exactly as the index does.
    var tokenizer: FTS5Tokenizer {
        get throws {
            try FTS5Tokenizer.kept(named: FoldingTokenizer.name, on: database)
        }
    }

    /// The schema version of the open database.
    public var schemaVersion: Int {
        get throws { try Migrator.version(of: database) }
    }

    /// Creates the folders of `path` that are missing.
    static func createParentDirectories(of path: String) throws {
        var prefix = ""
        let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (offset, component) in components.enumerated() {
            prefix += (offset == 0 ? "" : "/") + component
            guard !prefix.isEmpty, access(prefix, F_OK) != 0 else { continue }
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw DatabaseOpenError.cannotCreate(
                    path: prefix, reason: String(cString: strerror(errno)))
            }
        }
    }
}

/// A database file that cannot be used.
public enum DatabaseOpenError: Error, CustomStringConvertible, Sendable {
    /// The file does not exist (and the command does not create it).
    case missing(path: String)
    /// The file is not an SQLite database, is damaged, or belongs to another program.
    case notADatabase(path: String, reason: String)
    /// The database was written by a newer version of ftsearch.
    case newerSchema(SchemaVersionError)
    /// A folder for the database could not be created.
    case cannotCreate(path: String, reason: String)
    /// The file could not be opened or created (permissions, a missing folder).
    case cannotOpen(path: String, reason: String)

    /// A sentence saying what is wrong, naming the file.
    public var description: String {
        switch self {
        case .missing(let path):
            "no database at \(path)"
        case .notADatabase(let path, let reason):
            "\(path) is not an ftsearch database (\(reason))"
        case .newerSchema(let error):
            error.description
        case .cannotCreate(let path, let reason):
            "cannot create \(path): \(reason.lowercased())"
        case .cannotOpen(let path, let reason):
            "cannot open \(path): \(reason)"
        }
    }
}
