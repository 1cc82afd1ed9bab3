import CSQLite

/// A connection to an SQLite database file (https://sqlite.org/c3ref/sqlite3.html).
///
/// Not `Sendable`: use one connection per thread or process.
///
/// ```swift
/// let database = try Database(path: "/tmp/example.sqlite")
/// try database.execute(sql: "CREATE TABLE t(x)")
/// try database.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["hello"])
/// ```
public final class Database {
    /// How to open the file.
    public enum Mode: Sendable {
        /// Read only; the file must exist.
        case readOnly
        /// Read and write; the file is created when missing.
        case readWriteCreate
    }

    /// The path of the database file.
    public let path: String
    let handle: OpaquePointer
    private var statementCache: [String: Statement] = [:]
    /// The check behind ``interruptingStatements(when:_:)``, kept alive while it is installed.
    var interruptCheck: InterruptCheck?

    /// Opens the database at `path`.
    ///
    /// - Parameters:
    ///   - path: A file path, or `:memory:`.
    ///   - mode: Whether to open for reading only, or for writing (creating the file if needed).
    ///   - busyTimeoutMilliseconds: How long to wait for another process's lock before failing
    ///     with `SQLITE_BUSY` (https://sqlite.org/c3ref/busy_timeout.html).
    /// - Throws: ``SQLiteError`` when the file cannot be opened.
    public init(
        path: String, mode: Mode = .readWriteCreate, busyTimeoutMilliseconds: Int32 = 10_000
    )
        throws(SQLiteError)
    {
        var handle: OpaquePointer?
        let flags =
            (mode == .readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: code)
            sqlite3_close_v2(handle)
            throw error
        }
        self.path = path
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The version of the SQLite library in use, such as `3.40.1`.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    // MARK: Statements

    /// Prepares `sql` as a new statement.
    public func makeStatement(sql: String) throws(SQLiteError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// A prepared statement for `sql`, reused across calls (for statements run often).
    public func cachedStatement(sql: String) throws(SQLiteError) -> Statement {
        if let statement = statementCache[sql] { return statement }
        let statement = try makeStatement(sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs one or more `;`-separated statements without arguments, or one statement with them.
    public func execute(sql: String, arguments: StatementArguments = []) throws(SQLiteError) {
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
    public func fetchInt(sql: String, arguments: StatementArguments = []) throws -> Int? {
        try makeStatement(sql: sql).firstRow(arguments) { $0.isNull(at: 0) ? nil : $0.int(at: 0) }
            ?? nil
    }

    /// The first column of the first row of `sql` as text, or nil when there is no row or it
    /// is NULL.
    public func fetchText(sql: String, arguments: StatementArguments = []) throws -> String? {
        try makeStatement(sql: sql).firstRow(arguments) { $0.text(at: 0) } ?? nil
    }

    // MARK: Transactions

    /// How a transaction takes its locks (https://sqlite.org/lang_transaction.html).
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        /// Takes the write lock at once, so the transaction never fails half-way for another
        /// writer: use it for every transaction that writes.
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T)
        throws -> T
    {
        try execute(sql: "BEGIN \(kind.rawValue)")
        do {
            let result = try body()
            try execute(sql: "COMMIT")
            return result
        } catch {
            if !isAutocommit { try? execute(sql: "ROLLBACK") }
            throw error
        }
    }

    /// Whether no transaction is open.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    public var changesCount: Int { Int(sqlite3_changes64(handle)) }
}
