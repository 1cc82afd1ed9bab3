import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connection to an SQLite database file (https://sqlite.org/c3ref/sqlite3.html).
///
/// Not `Sendable`: use one connection per thread or process.
///
/// ```swift
/// let database = try Database(path: "/tmp/example.sqlite")
/// try database.execute(sql: "CREATE TABLE t(x)")
/// try database.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["hello"])
/// ```
package final class Database {
    /// How to open the file.
    package enum Mode: Sendable {
        /// Read only; the file must exist.
        case readOnly
        /// Read and write; the file is created when missing. SQLite opens a file it may not
        /// write for reading only (see ``isReadOnly``).
        case readWriteCreate
        /// Read and write; the file must exist.
        case readWrite
        /// Read only, promising SQLite that nothing changes the file while it is open
        /// (`immutable=1`, https://sqlite.org/uri.html#uriimmutable): no locks are taken and no
        /// `-wal` or `-shm` file is read or made. Only sound while no writer is at work.
        case immutable
    }

    /// The path of the database file.
    package let path: String
    /// How the file was opened.
    package let mode: Mode
    package let handle: OpaquePointer
    private var statementCache: [String: Statement] = [:]
    /// The check behind ``interruptingStatements(when:_:)``, kept alive while it is installed.
    package var interruptCheck: InterruptCheck?
    /// Whether a transaction that must be durable by close has been committed.
    private var hasCommittedDurableByClose = false
    /// Whether closing must leave the WAL as it is, for a connection that only reads beside a
    /// writer of the same process (closing would otherwise checkpoint it when it is the last).
    package var neverCheckpointsOnClose = false
    /// The rows changed by transactions committed with ``Durability/byNextCheckpoint``.
    private var changesDurableByNextCheckpoint: Int64 = 0
    /// How statements wait for another connection's lock (see ``lockWaiting``).
    private let busyWaiter: BusyWaiter
    /// What the layers above keep for this connection, one value per type (see
    /// ``kept(_:orMake:)``).
    private var keptValues: [ObjectIdentifier: AnyObject] = [:]
    /// The writes ``writeWithoutWaiting(_:)`` was given inside the read transaction of
    /// ``readingOneVersion(_:)``, run when it ends; nil outside that transaction.
    private var writesAfterReading: [() throws -> Void]?
    /// How many read transactions ``readingOneVersion(_:)`` has begun.
    private var readTransactionsBegun = 0

    /// Opens the database at `path`.
    ///
    /// - Parameters:
    ///   - path: A file path, or `:memory:`.
    ///   - mode: Whether to open for reading only, or for writing (creating the file if needed).
    ///   - lockWaiting: How to wait for another connection's lock (``lockWaiting``).
    /// - Throws: ``SQLiteError`` when the file cannot be opened.
    package init(
        path: String, mode: Mode = .readWriteCreate,
        lockWaiting: LockWaiting = .atMost(milliseconds: 10_000)
    )
        throws(SQLiteError)
    {
        var handle: OpaquePointer?
        let flags: Int32 =
            switch mode {
            case .readOnly: SQLITE_OPEN_READONLY
            case .readWriteCreate: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            case .readWrite: SQLITE_OPEN_READWRITE
            case .immutable: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            }
        let name = mode == .immutable ? Self.immutableURI(path: path) : path
        let code = sqlite3_open_v2(name, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: code)
            sqlite3_close_v2(handle)
            throw error
        }
        self.path = path
        self.mode = mode
        self.handle = handle
        self.busyWaiter = BusyWaiter(policy: lockWaiting, path: path)
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_handler(handle, busyHandler, Unmanaged.passUnretained(busyWaiter).toOpaque())
    }

    /// How statements wait when another connection holds the lock they need: a write waits
    /// for the write lock, which one connection at a time holds from `BEGIN IMMEDIATE` to
    /// `COMMIT` (https://sqlite.org/lockingv3.html, https://sqlite.org/wal.html#concurrency).
    package var lockWaiting: LockWaiting {
        get { busyWaiter.policy }
        set { busyWaiter.policy = newValue }
    }

    deinit {
        statementCache.removeAll()
        // What the connection keeps may hold its objects (tokenizers of its FTS5 module).
        keptValues.removeAll()
        if neverCheckpointsOnClose || leavesWALOnClose {
            _ = csqlite_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
        } else {
            // The last connection to close checkpoints holding an exclusive lock on the file,
            // which every process opening it meanwhile waits for. Copying the WAL in first,
            // passively (https://sqlite.org/c3ref/wal_checkpoint_v2.html: no lock others wait
            // for), leaves that lock only the deleting of a WAL already copied.
            sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }
        sqlite3_close_v2(handle)
    }

    /// `file:` URI of `path` opened immutable, with `%`, `?` and `#` escaped
    /// (https://sqlite.org/uri.html).
    private static func immutableURI(path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        // An absolute path gets an empty authority, so "//x" cannot read as a host name.
        return (path.hasPrefix("/") ? "file://" : "file:") + escaped + "?immutable=1"
    }

    /// Whether the connection can only read: opened read-only or immutable, or the file is
    /// write-protected (https://sqlite.org/c3ref/db_readonly.html).
    package var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// The version of the SQLite library in use, such as `3.40.1`.
    package static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// The value of type `T` kept for this connection, made by `make` the first time it is
    /// asked for: a cache of what this connection reads, which lives as long as the connection
    /// and, like it, is used on one thread at a time. Telling when it is out of date is its
    /// owner's.
    package func kept<T: AnyObject>(_ type: T.Type = T.self, orMake make: () -> T) -> T {
        let key = ObjectIdentifier(type)
        if let value = keptValues[key] as? T { return value }
        let value = make()
        keptValues[key] = value
        return value
    }

    // MARK: Statements

    /// Prepares `sql` as a new statement.
    package func makeStatement(sql: String) throws(SQLiteError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// A prepared statement for `sql`, reused across calls (for statements run often).
    package func cachedStatement(sql: String) throws(SQLiteError) -> Statement {
        if let statement = statementCache[sql] { return statement }
        let statement = try makeStatement(sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs one or more `;`-separated statements without arguments, or one statement with them.
    package func execute(sql: String, arguments: StatementArguments = []) throws(SQLiteError) {
        if arguments.isEmpty {
            let code = sqlite3_exec(handle, sql, nil, nil, nil)
            guard code == SQLITE_OK else {
                throw SQLiteError(connection: handle, code: code, sql: sql)
            }
        } else {
            try makeStatement(sql: sql).execute(arguments)
        }
    }

    /// The first column of the first row of `sql` as an integer, or nil when there is no row
    /// or it is NULL.
    package func fetchInt(sql: String, arguments: StatementArguments = []) throws -> Int? {
        try makeStatement(sql: sql).firstRow(arguments) { $0.isNull(at: 0) ? nil : $0.int(at: 0) }
            ?? nil
    }

    /// The first column of the first row of `sql` as text, or nil when there is no row or it
    /// is NULL.
    package func fetchText(sql: String, arguments: StatementArguments = []) throws -> String? {
        try makeStatement(sql: sql).firstRow(arguments) { $0.text(at: 0) } ?? nil
    }

    // MARK: Transactions

    /// How a transaction takes its locks (https://sqlite.org/lang_transaction.html).
    package enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        /// Takes the write lock at once, so the transaction never fails half-way for another
        /// writer: use it for every transaction that writes.
        case immediate = "IMMEDIATE"
    }

    /// When a committed transaction must be in the database file itself, not only in the WAL
    /// (https://sqlite.org/wal.html#ckpt).
    package enum Durability: Sendable {
        /// By the time the connection closes: closing checkpoints the WAL (SQLite's default), so
        /// once the process has ended the file is complete, and can be copied alone.
        case byClose
        /// At the next checkpoint by any connection, for small writes that may wait, such as a
        /// search's history entry. A connection whose only changes were such transactions
        /// closes without a checkpoint while the WAL holds at most
        /// ``largestWALLeftOnClose`` bytes, so those writes cost no disk flush; the next
        /// connection to close after the WAL has grown past that folds it in.
        case byNextCheckpoint
    }

    /// The largest WAL a closing connection leaves behind (see ``Durability/byNextCheckpoint``).
    /// The next process to open the database reads all of it (about 0.6 ms per MiB), so it is
    /// kept small: a few dozen history entries.
    package static let largestWALLeftOnClose = 256 << 10

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// - Parameters:
    ///   - kind: How the transaction takes its locks.
    ///   - durability: When the committed changes must reach the database file.
    ///   - body: The work; its result is returned.
    package func inTransaction<T>(
        _ kind: TransactionKind = .immediate, durability: Durability = .byClose,
        _ body: () throws -> T
    ) throws -> T {
        let changesBefore = sqlite3_total_changes64(handle)
        try begin(kind)
        do {
            let result = try body()
            try execute(sql: "COMMIT")
            switch durability {
            case .byClose:
                hasCommittedDurableByClose = true
            case .byNextCheckpoint:
                changesDurableByNextCheckpoint += sqlite3_total_changes64(handle) - changesBefore
            }
            return result
        } catch {
            if !isAutocommit { try? execute(sql: "ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` as ``inTransaction(_:durability:_:)`` does, and runs it again from the
    /// start (at most twice more) when one of its statements fails with `SQLITE_SCHEMA`:
    /// another connection changed the schema as the transaction began (an import drops and
    /// restores triggers) and SQLite could not prepare the statement again. The statements
    /// this connection kept are prepared afresh. Only for bodies that are database work on
    /// inputs they do not consume.
    package func inTransactionRetryingAfterSchemaChange<T>(
        _ kind: TransactionKind = .immediate, _ body: () throws -> T
    ) throws -> T {
        var attempt = 0
        while true {
            do {
                return try inTransaction(kind, body)
            } catch let error as SQLiteError where error.resultCode == SQLITE_SCHEMA && attempt < 2
            {
                attempt += 1
                statementCache.removeAll()
            }
        }
    }

    /// Runs `body` on one version of the database: in a deferred transaction of its own when
    /// none is open (ended when `body` returns or throws, so that it never pins that version
    /// for later reads), else in the one open.
    package func readingOneVersion<T>(_ body: () throws -> T) throws -> T {
        guard isAutocommit else { return try body() }
        // Prepared once: every search runs a few of these, and sqlite3_exec parses each time.
        try cachedStatement(sql: "BEGIN DEFERRED").execute()
        readTransactionsBegun += 1
        writesAfterReading = []
        defer {
            if !isAutocommit, (try? cachedStatement(sql: "COMMIT").execute()) == nil {
                try? execute(sql: "ROLLBACK")
            }
            let writes = writesAfterReading ?? []
            writesAfterReading = nil
            for write in writes { writeWithoutWaiting(write) }
        }
        return try body()
    }

    /// Starts a transaction; a lock another connection keeps past ``lockWaiting`` throws
    /// ``DatabaseBusyError``.
    private func begin(_ kind: TransactionKind) throws {
        let sql = "BEGIN \(kind.rawValue)"
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        if code == SQLITE_OK { return }
        if code & 0xFF == SQLITE_BUSY {
            throw DatabaseBusyError(path: path, holder: LockHolder.writer(ofDatabaseAt: path))
        }
        throw SQLiteError(connection: handle, code: code, sql: sql)
    }

    /// Whether closing may skip the checkpoint: every change of this connection (counted by
    /// https://sqlite.org/c3ref/total_changes.html) was durable by the next checkpoint, and the
    /// WAL is small.
    private var leavesWALOnClose: Bool {
        guard !hasCommittedDurableByClose, changesDurableByNextCheckpoint > 0,
            sqlite3_total_changes64(handle) == changesDurableByNextCheckpoint
        else { return false }
        var wal = stat()
        return stat(path + "-wal", &wal) == 0 && Int(wal.st_size) <= Self.largestWALLeftOnClose
    }

    /// Runs `body` in an immediate transaction, durable by the next checkpoint, when that can
    /// be done at once, and otherwise does nothing: for writes that are only worth having, such
    /// as a cache entry, which must never hold up or fail the work they serve. Inside the read
    /// transaction of ``readingOneVersion(_:)`` it runs once that ends (a search that derives
    /// something to keep as it reads); nothing is written inside another transaction, on a
    /// read-only connection, or while another connection holds the write lock (no busy timeout
    /// is waited); an error rolls `body`'s changes back and is ignored.
    package func writeWithoutWaiting(_ body: @escaping () throws -> Void) {
        if writesAfterReading != nil {
            writesAfterReading?.append(body)
            return
        }
        guard isAutocommit, !isReadOnly else { return }
        let waiting = lockWaiting
        lockWaiting = .failAtOnce
        defer { lockWaiting = waiting }
        try? inTransaction(.immediate, durability: .byNextCheckpoint, body)
    }

    // MARK: Copying

    /// Copies every page of this database into `destination`, replacing its contents, with
    /// SQLite's online backup (https://sqlite.org/backup.html).
    package func copy(into destination: Database) throws(SQLiteError) {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw SQLiteError(
                connection: destination.handle, code: sqlite3_errcode(destination.handle))
        }
        let code = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else {
            throw SQLiteError(connection: destination.handle, code: code)
        }
    }

    /// Copies the WAL into the database file and empties it
    /// (https://sqlite.org/pragma.html#pragma_wal_checkpoint), then removes it when the
    /// connection closes: afterwards the file alone holds everything.
    package func checkpoint() throws(SQLiteError) {
        try execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        hasCommittedDurableByClose = true
    }

    /// Whether no transaction is open.
    package var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// The rowid of the last row inserted on this connection.
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    package var changesCount: Int { Int(sqlite3_changes64(handle)) }
}

extension Database {
    /// Whether this connection is inside a write transaction on its main database
    /// (https://sqlite.org/c3ref/txn_state.html): what it reads may then hold its own
    /// uncommitted changes, which nothing kept across transactions may remember.
    package var isWriting: Bool {
        sqlite3_txn_state(handle, "main") == SQLITE_TXN_WRITE
    }

    /// The read transaction of ``readingOneVersion(_:)`` this connection is in, by a number no
    /// other of its transactions has: what is read in it stays as read until it ends (for
    /// values derived from a read, kept for the rest of the transaction). Nil outside one, and
    /// once it has written.
    package var readTransaction: Int? {
        guard writesAfterReading != nil, !isWriting else { return nil }
        return readTransactionsBegun
    }
}
