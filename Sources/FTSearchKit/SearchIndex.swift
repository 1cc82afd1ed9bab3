import CSQLite
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ftsearch database: people, animals, their full-text indexes and the search history.
///
/// The entry point of the library:
/// ```swift
/// let index = try SearchIndex(path: DatabaseLocation.resolve(environment: environment))
/// let summary = try index.importFiles(["people.csv"], options: ImportOptions())
/// let page = try index.search(SearchRequest(text: "ann"))
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
/// Not `Sendable`: open one per thread or process. Any number of processes can use the same
/// file at once: the database is in WAL mode, writers queue on a busy timeout.
public final class SearchIndex {
    /// Whether opening may create the database file.
    public enum OpenMode: Sendable {
        /// Create the file (and its folders) when missing.
        case createIfMissing
        /// Fail with ``DatabaseOpenError/missing(path:)`` when the file does not exist.
        case existingOnly
    }

    /// The path of the database file.
    public let path: String
    let database: Database
    let clock: @Sendable () -> Timestamp
    private var cachedTokenizer: FTS5Tokenizer?
    /// A second connection that ranks half of a large table in parallel (see ``RankingHelper``).
    var rankingHelper = RankingHelper.Slot.notNeededYet

    /// Opens (and if needed creates and migrates) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - mode: Whether a missing file is created.
    ///   - clock: The current time, for timestamps (tests pass a fixed one).
    ///   - onMigrationProgress: Hears how far a migration that re-indexes every record has
    ///     come (records done, and as bytes the records done out of all records), so a
    ///     command can show the import's progress line.
    /// - Throws: ``DatabaseOpenError`` when the file is missing, is not an ftsearch database,
    ///   or comes from a newer version; ``SQLiteError`` when SQLite fails.
    public init(
        path: String, mode: OpenMode = .createIfMissing,
        clock: @escaping @Sendable () -> Timestamp = Timestamp.now,
        onMigrationProgress: (ImportProgress) -> Void = { _ in }
    ) throws {
        self.path = path
        self.clock = clock
        if access(path, F_OK) != 0 {
            guard mode == .createIfMissing else { throw DatabaseOpenError.missing(path: path) }
            try Self.createParentDirectories(of: path)
        }
        database = try Self.openDatabase(at: path)
        try prepareConnection(onMigrationProgress: onMigrationProgress)
    }

    /// Opens another connection to the database at `path`, with ftsearch's tokenizers
    /// registered (every connection that reads or writes the indexes needs them).
    static func openConnection(path: String) throws(SQLiteError) -> Database {
        let database = try Database(path: path)
        try FoldingTokenizer.register(on: database)
        return database
    }

    /// Sets the connection up, refuses files that are not ftsearch databases or come from a
    /// newer version, and migrates older ones; reads the schema version once.
    private func prepareConnection(onMigrationProgress: (ImportProgress) -> Void) throws {
        do {
            try database.execute(sql: "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
            let version = try Migrator.version(of: database)
            if version > Schema.migrator.latestVersion {
                throw SchemaVersionError(
                    path: path, found: version, supported: Schema.migrator.latestVersion)
            }
            if version == 0,
                try database.fetchInt(sql: "SELECT count(*) FROM sqlite_schema") ?? 0 > 0
            {
                throw DatabaseOpenError.notADatabase(
                    path: path, reason: "it holds tables of another program")
            }
            try FoldingTokenizer.register(on: database)
            if try database.fetchText(sql: "PRAGMA journal_mode") != "wal" {
                try database.execute(sql: "PRAGMA journal_mode = WAL")
            }
            if version < Schema.migrator.latestVersion {
                try Schema.migrator.migrate(database, onProgress: onMigrationProgress)
            }
        } catch let error as SQLiteError where error.isCorruption {
            throw DatabaseOpenError.notADatabase(path: path, reason: error.message)
        } catch let error as SchemaVersionError {
            throw DatabaseOpenError.newerSchema(error)
        }
    }

    /// The tokenizer of the index, to split and fold text exactly as the index does.
    var tokenizer: FTS5Tokenizer {
        get throws {
            if let cachedTokenizer { return cachedTokenizer }
            let tokenizer = try FTS5Tokenizer(database: database, name: FoldingTokenizer.name)
            cachedTokenizer = tokenizer
            return tokenizer
        }
    }

    /// The schema version of the open database.
    public var schemaVersion: Int {
        get throws { try Migrator.version(of: database) }
    }

    private static func openDatabase(at path: String) throws -> Database {
        let failure: SQLiteError
        do {
            return try Database(path: path)
        } catch {
            failure = error
        }
        guard failure.resultCode == SQLITE_CANTOPEN else { throw failure }
        let message = failure.message
        throw DatabaseOpenError.cannotOpen(path: path, reason: whyUnopenable(path) ?? message)
    }

    /// Why the operating system would refuse to open or create `path`, when it can tell.
    private static func whyUnopenable(_ path: String) -> String? {
        if access(path, F_OK) == 0 {
            return access(path, R_OK | W_OK) == 0 ? nil : "permission denied"
        }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        return access(folder.isEmpty ? "/" : folder, W_OK | X_OK) == 0
            ? nil : "the folder is not writable"
    }

    private static func createParentDirectories(of path: String) throws {
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
            "no database at \(path); run 'ftsearch import FILE' first"
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
