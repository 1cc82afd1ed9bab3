import FTSearchSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The search history's own database file, `<database>-history`, beside the records' file.
///
/// SQLite lets one connection write a database at a time (https://sqlite.org/wal.html#concurrency),
/// and an import holds that lock for as long as it runs. A search's history entry kept in the same
/// file would wait for the import to end, or be lost after the busy timeout. Kept in a file of its
/// own, as atuin keeps its history, an entry waits only for other history writes, which take
/// well under a millisecond each: no import, edit or optimize ever locks it.
///
/// The file is in WAL mode with `synchronous=NORMAL`, and has its own schema version
/// (``Schema/historyMigrator``). Migration 9 moved the entries of older databases into it.
enum HistoryFile {
    /// The history file of the database at `databasePath`.
    static func path(forDatabaseAt databasePath: String) -> String {
        databasePath + "-history"
    }

    /// What a connection to the history file may do.
    enum Access {
        /// Record and delete entries: the file is created and migrated when needed.
        case write
        /// Read beside a writer of the same process (a ``SearchIndexPool`` reader), seeing what
        /// it records later: read-write at the SQLite level, never writing, never
        /// checkpointing when it closes.
        case readBesideWriter
        /// Read only, changing no file: through the `-shm` file when a `-wal` file shows a
        /// writer at work, else `immutable`; an empty history when there is no file.
        case read
    }

    /// Opens the history of the database at `databasePath`.
    ///
    /// - Parameters:
    ///   - databasePath: The records' database file.
    ///   - access: What the connection may do.
    ///   - waiting: How the connection waits for another process's write lock.
    /// - Throws: ``DatabaseOpenError`` when the file is newer than this program, or is being
    ///   written and cannot be read safely; ``SQLiteError``.
    static func open(forDatabaseAt databasePath: String, access: Access, waiting: LockWaiting)
        throws -> Database
    {
        let path = path(forDatabaseAt: databasePath)
        if databasePath == ":memory:" || databasePath.isEmpty
            || access != .write
                && !fileExists(path)
        {
            return try emptyHistory()
        }
        let database: Database
        switch access {
        case .write:
            database = try Database(path: path, mode: .readWriteCreate, lockWaiting: waiting)
        case .readBesideWriter:
            database = try Database(path: path, mode: .readWrite, lockWaiting: waiting)
            database.neverCheckpointsOnClose = true
        case .read:
            database = try Database(
                path: path, mode: fileExists(path + "-wal") ? .readOnly : .immutable,
                lockWaiting: waiting)
        }
        let version: Int
        do {
            version = try Migrator.version(of: database)
        } catch let error as SQLiteError where error.isMissingSharedMemory {
            throw DatabaseOpenError.cannotOpen(
                path: path,
                reason: "it is read-only here, and its -wal file has no -shm file beside it "
                    + "that SQLite may read or create (\(error.message))")
        }
        let latest = Schema.historyMigrator.latestVersion
        if version > latest {
            throw DatabaseOpenError.newerSchema(
                SchemaVersionError(path: path, found: version, supported: latest))
        }
        if access == .write && !database.isReadOnly {
            try database.execute(sql: "PRAGMA synchronous = NORMAL")
            try database.switchToWAL()
            if version < latest {
                try Schema.historyMigrator.migrate(database)
            }
        } else if version < latest {
            // A history this process may not bring up to date reads as empty.
            return try emptyHistory()
        }
        return database
    }

    /// An empty history in memory, for a database without a history file to read.
    private static func emptyHistory() throws -> Database {
        let database = try Database(path: ":memory:")
        try Schema.historyMigrator.migrate(database)
        return database
    }

    private static func fileExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
