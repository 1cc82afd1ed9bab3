import CSQLite

/// An error reported by SQLite, with the statement that caused it.
///
/// The description has one fixed shape and never includes bound values, which may be user data:
/// `SQLite error 19: UNIQUE constraint failed: people.id - while executing `INSERT ...``
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (https://sqlite.org/rescode.html).
    public let extendedResultCode: Int32
    /// SQLite's explanation.
    public let message: String
    /// The SQL being executed, if any.
    public let sql: String?

    /// Creates an error from its parts.
    public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, ...).
    public var resultCode: Int32 { extendedResultCode & 0xFF }

    /// Whether the error means the file is not a database, or is damaged.
    public var isCorruption: Bool {
        resultCode == SQLITE_NOTADB || resultCode == SQLITE_CORRUPT
    }

    /// Whether the error comes from the disk or file system rather than the data.
    public var isIOFailure: Bool {
        [
            SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM, SQLITE_BUSY,
            SQLITE_LOCKED,
        ].contains(resultCode)
    }

    /// `SQLite error CODE: MESSAGE - while executing `SQL``.
    public var description: String {
        var text = "SQLite error \(extendedResultCode): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}

extension SQLiteError {
    /// The error last reported on `connection`.
    init(connection: OpaquePointer?, code: Int32, sql: String? = nil) {
        let message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        self.init(extendedResultCode: extended == 0 ? code : extended, message: message, sql: sql)
    }
}
