import FTSearchSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening a database file: for writing when this process may, else for reading only.
///
/// A database in WAL mode is read through its `-shm` file (https://sqlite.org/wal.html#readonly):
/// a reader that may not write the database still needs that file, or a folder where SQLite can
/// make it. When neither is there and no `-wal` (or `-journal`) file shows a writer at work, the
/// file is opened `immutable`, which needs neither; with a `-wal` file but no usable `-shm` file
/// there is no safe way to read it, and opening fails saying so.
extension SearchIndex {
    /// Opens `path`, refuses files that are not ftsearch databases or come from a newer version,
    /// and migrates older ones when it may write (and was not asked to be `readingOnly`).
    static func openConnection(
        at path: String, readingOnly: Bool, lockWaiting: LockWaiting,
        onMigrationProgress: (ImportProgress) -> Void
    ) throws -> (Database, ReadOnlyReason?) {
        var database = try openDatabase(
            at: path, readingOnly: readingOnly, lockWaiting: lockWaiting)
        var readOnlyReason: ReadOnlyReason? =
            readingOnly ? .openedForReading : database.isReadOnly ? whyReadOnly(path) : nil
        if readOnlyReason != nil, !hasWriterAtWork(path) {
            database = try Database(path: path, mode: .immutable)
        }
        do {
            try prepare(
                database, at: path, readOnlyReason: readOnlyReason,
                onMigrationProgress: onMigrationProgress)
        } catch let error as SQLiteError where error.isMissingSharedMemory {
            // A writable file in a folder that is not (or a connection that may not write):
            // SQLite cannot make the -wal and -shm files.
            guard readOnlyReason == nil || readingOnly, !hasWriterAtWork(path) else {
                throw DatabaseOpenError.cannotOpen(
                    path: path,
                    reason: "it is read-only here, and its -wal file has no -shm file beside it "
                        + "that SQLite may read or create (\(error.message))")
            }
            readOnlyReason = readingOnly ? .openedForReading : .folderNotWritable
            database = try Database(path: path, mode: .immutable)
            try prepare(
                database, at: path, readOnlyReason: readOnlyReason,
                onMigrationProgress: onMigrationProgress)
        }
        return (database, readOnlyReason)
    }

    /// Opens a connection that reads `path` beside a writer of the same process (see
    /// ``SearchIndexPool``): read-write at the SQLite level, so that the caches a search keeps
    /// can be written when no one else writes, but never migrating and never logging
    /// (``ReadOnlyReason/openedForReading``). The file must exist at the latest schema.
    static func openReaderConnection(at path: String) throws -> Database {
        let database = try openDatabase(at: path, readingOnly: false, lockWaiting: .untilFree)
        try prepare(
            database, at: path, readOnlyReason: .openedForReading, onMigrationProgress: { _ in })
        return database
    }

    /// The settings of a connection that may write, before it reads anything.
    static let writingSettingsSQL = "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL"

    /// Runs `body` with this index's connection reading through its page cache instead of the
    /// file's mapping: for one pass over a whole table, whose mapped pages would otherwise all
    /// count in the process's memory, however large the file.
    func readingWithoutMapping<T>(_ body: () throws -> T) throws -> T {
        let mapped = try database.fetchInt(sql: "PRAGMA mmap_size") ?? 0
        try database.execute(sql: "PRAGMA mmap_size = 0")
        defer { try? database.execute(sql: "PRAGMA mmap_size = \(mapped)") }
        return try body()
    }

    /// Sets the connection up and checks the schema, in one statement for the common case.
    private static func prepare(
        _ database: Database, at path: String, readOnlyReason: ReadOnlyReason?,
        onMigrationProgress: (ImportProgress) -> Void
    ) throws {
        let latest = Schema.migrator.latestVersion
        do {
            // The file is mapped by `configure` below, once the schema is known to be ours.
            try database.execute(sql: writingSettingsSQL)
            let facts = try database.makeStatement(
                sql: """
                    SELECT user_version, journal_mode, (SELECT count(*) FROM sqlite_schema)
                    FROM pragma_user_version, pragma_journal_mode
                    """
            ).firstRow {
                (version: $0.int(at: 0), journalMode: $0.text(at: 1), objects: $0.int(at: 2))
            }
            guard let facts else { return }
            if facts.version > latest {
                throw SchemaVersionError(path: path, found: facts.version, supported: latest)
            }
            if facts.version == 0 && facts.objects > 0 {
                throw DatabaseOpenError.notADatabase(
                    path: path, reason: "it holds tables of another program")
            }
            try database.configureForSearch()
            if let readOnlyReason {
                guard facts.version == latest else {
                    throw ReadOnlyDatabaseError(
                        path: path, reason: readOnlyReason,
                        change: facts.version == 0
                            ? "create the ftsearch tables"
                            : "upgrade its schema from version \(facts.version) to \(latest)")
                }
                return
            }
            if facts.journalMode != "wal" {
                try database.switchToWAL()
            }
            if facts.version < latest {
                try Schema.migrator.migrate(database) { progress in
                    onMigrationProgress(
                        ImportProgress(
                            recordsRead: progress.done, bytesRead: Int64(progress.done),
                            totalBytes: Int64(progress.total)))
                }
            }
        } catch let error as SQLiteError where error.isCorruption {
            throw DatabaseOpenError.notADatabase(path: path, reason: error.message)
        } catch let error as SchemaVersionError {
            throw DatabaseOpenError.newerSchema(error)
        } catch let error as NewerSchemaError {
            // Another process upgraded the file between the check above and the migration.
            throw DatabaseOpenError.newerSchema(
                SchemaVersionError(path: path, found: error.found, supported: error.supported))
        }
    }

    private static func openDatabase(
        at path: String, readingOnly: Bool, lockWaiting: LockWaiting
    ) throws -> Database {
        let failure: SQLiteError
        do {
            return try Database(
                path: path, mode: readingOnly ? .readOnly : .readWriteCreate,
                lockWaiting: lockWaiting)
        } catch {
            failure = error
        }
        guard failure.code == .cannotOpen else { throw failure }
        let message = failure.message
        throw DatabaseOpenError.cannotOpen(path: path, reason: whyUnopenable(path) ?? message)
    }

    /// Why SQLite opened `path` for reading only.
    private static func whyReadOnly(_ path: String) -> ReadOnlyReason {
        access(path, W_OK) != 0 && errno == EROFS ? .readOnlyFileSystem : .permissionDenied
    }

    /// Whether a `-wal` or `-journal` file shows that a writer is at work, or was interrupted.
    private static func hasWriterAtWork(_ path: String) -> Bool {
        access(path + "-wal", F_OK) == 0 || access(path + "-journal", F_OK) == 0
    }

    /// Why the operating system would refuse to open or create `path`, when it can tell.
    private static func whyUnopenable(_ path: String) -> String? {
        if access(path, F_OK) == 0 {
            return access(path, R_OK) == 0 ? nil : "permission denied"
        }
        return access(FileNames.folder(of: path), W_OK | X_OK) == 0
            ? nil : "the folder is not writable"
    }
}

extension SQLiteError {
    /// Whether reading failed because SQLite could neither open nor make the `-wal` or `-shm`
    /// file of a WAL database.
    var isMissingSharedMemory: Bool {
        code == .cannotOpen || code == .readOnly
    }
}
