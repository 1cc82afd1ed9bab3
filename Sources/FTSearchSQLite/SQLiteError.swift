import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An error reported by SQLite, with the statement that caused it.
///
/// The description has one fixed shape and never includes bound values, which may be user data:
/// `SQLite error 19: UNIQUE constraint failed: people.id - while executing `INSERT ...``
///
/// Apps meet it as `FTSearchKit.SQLiteError` when SQLite itself fails (a full disk, a damaged
/// file); ``code`` says which failure it is without importing SQLite's C API.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (https://sqlite.org/rescode.html).
    package let extendedResultCode: Int32
    /// SQLite's explanation.
    public let message: String
    /// The SQL being executed, if any.
    public let sql: String?
    /// The `errno` of the operating-system call that failed, for an I/O error
    /// (https://sqlite.org/c3ref/system_errno.html); 0 when there is none.
    public let systemErrorNumber: Int32

    /// The primary result code: what kind of failure this is.
    public var code: SQLiteResultCode { SQLiteResultCode(rawValue: resultCode) }
    /// The extended result code, which refines ``code`` (`SQLITE_CONSTRAINT_PRIMARYKEY`).
    public var extendedCode: SQLiteResultCode { SQLiteResultCode(rawValue: extendedResultCode) }

    /// An error of `code`, with SQLite's wording of it unless `message` is given.
    package init(_ code: SQLiteResultCode, message: String? = nil, sql: String? = nil) {
        self.init(
            extendedResultCode: code.rawValue, message: message ?? code.description, sql: sql)
    }

    /// Creates an error from its parts.
    package init(
        extendedResultCode: Int32, message: String, sql: String? = nil, systemErrorNumber: Int32 = 0
    ) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
        self.systemErrorNumber = systemErrorNumber
    }

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, ...).
    package var resultCode: Int32 { extendedResultCode & 0xFF }

    /// Whether the error means the file is not a database, or is damaged.
    public var isCorruption: Bool {
        resultCode == SQLITE_NOTADB || resultCode == SQLITE_CORRUPT
    }

    /// Whether the disk (or the file-size limit) had no room for what SQLite had to write: a
    /// full database, or an I/O error whose system call failed with `ENOSPC`, `EDQUOT` or
    /// `EFBIG` (growing the `-shm` file on a full disk is such an error).
    public var isDiskFull: Bool {
        resultCode == SQLITE_FULL || [ENOSPC, EDQUOT, EFBIG].contains(systemErrorNumber)
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
    package init(connection: OpaquePointer?, code: Int32, sql: String? = nil) {
        let message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        self.init(
            extendedResultCode: extended == 0 ? code : extended, message: message, sql: sql,
            systemErrorNumber: connection.map { sqlite3_system_errno($0) } ?? 0)
    }
}

/// An SQLite result code (https://sqlite.org/rescode.html), compared with the named constants:
/// `if error.code == .busy { ... }`.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number SQLite uses for the code.
    public let rawValue: Int32

    /// Wraps SQLite's number for a code.
    @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `SQLITE_OK`: success. Inlinable (SQLite defines it as 0): the ranking compares the
    /// result of each of a row's calls with it.
    @inlinable public static var ok: Self { Self(rawValue: 0) }
    /// `SQLITE_ERROR`: a generic error, such as an SQL syntax error.
    public static let error = Self(rawValue: SQLITE_ERROR)
    /// `SQLITE_PERM`: access permission denied.
    public static let permissionDenied = Self(rawValue: SQLITE_PERM)
    /// `SQLITE_BUSY`: another connection holds a lock that was needed.
    public static let busy = Self(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a table is locked by this connection's own work.
    public static let locked = Self(rawValue: SQLITE_LOCKED)
    /// `SQLITE_READONLY`: the database cannot be written.
    public static let readOnly = Self(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT`: the operation was cancelled.
    public static let interrupted = Self(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`: the operating system reported an I/O error.
    public static let ioError = Self(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the file is damaged.
    public static let corrupt = Self(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_FULL`: the disk is full.
    public static let full = Self(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    public static let cannotOpen = Self(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_CONSTRAINT`: a constraint was violated.
    public static let constraint = Self(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = Self(rawValue: SQLITE_NOTADB)
    /// `SQLITE_MISUSE`: the library was called in a way it does not allow.
    public static let misuse = Self(rawValue: SQLITE_MISUSE)

    /// SQLite's English wording of the code: `database is locked`.
    public var description: String { String(cString: sqlite3_errstr(rawValue)) }
}
