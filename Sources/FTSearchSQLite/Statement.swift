import CSQLite

/// A prepared SQL statement (https://sqlite.org/c3ref/stmt.html).
///
/// Prepared once, then reset, bound and stepped as often as needed; finalized on deinit.
/// Like its ``Database``, a statement belongs to one thread at a time.
package final class Statement {
    /// The SQL text the statement was prepared from.
    package let sql: String
    package let handle: OpaquePointer
    private unowned let database: Database

    package init(database: Database, sql: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(
            database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT),
            &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw SQLiteError(connection: database.handle, code: code, sql: sql)
        }
        self.sql = sql
        self.handle = handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Binding

    /// Resets the statement and binds `arguments` to its parameters, in order.
    package func bind(_ arguments: StatementArguments) throws(SQLiteError) {
        reset()
        for (offset, argument) in arguments.enumerated() {
            try bind(argument?.databaseValue ?? .null, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    package func bind(_ value: DatabaseValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real): code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            // Bound with its byte count: as a C string (-1), text would end at its first NUL.
            try bind(text, at: index)
            return
        case .blob(let bytes):
            try bind(blob: bytes, at: index)
            return
        }
        try check(code)
    }

    /// Binds text to the 1-based parameter `index` (the fast path for bulk inserts).
    package func bind(_ text: String, at index: Int32) throws(SQLiteError) {
        var text = text
        let code = text.withUTF8 { bytes -> Int32 in
            guard let base = bytes.baseAddress else {
                return sqlite3_bind_text(handle, index, "", 0, nil)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, index, $0, Int32(bytes.count), csqlite_transient())
            }
        }
        try check(code)
    }

    /// Binds bytes as a blob to the 1-based parameter `index` (SQLite keeps its own copy).
    package func bind(blob bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let code = bytes.withUnsafeBytes {
            sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), csqlite_transient())
        }
        try check(code)
    }

    /// Binds an integer to the 1-based parameter `index`.
    package func bind(_ integer: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, integer))
    }

    /// Binds an integer, or NULL for nil, to the 1-based parameter `index`.
    package func bind(_ integer: Int64?, at index: Int32) throws(SQLiteError) {
        if let integer { try bind(integer, at: index) } else { try bindNull(at: index) }
    }

    /// Binds NULL to the 1-based parameter `index`.
    package func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Resets the statement so it can run again; bindings are kept.
    package func reset() {
        sqlite3_reset(handle)
    }

    // MARK: Stepping

    /// Runs the statement one step.
    ///
    /// - Returns: `true` when a row is available, `false` when the statement is done.
    @discardableResult
    package func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            sqlite3_reset(handle)
            throw SQLiteError(connection: database.handle, code: code, sql: sql)
        }
    }

    /// Binds `arguments` and runs the statement to completion, ignoring any rows.
    package func execute(_ arguments: StatementArguments = []) throws(SQLiteError) {
        try bind(arguments)
        while try step() {}
        reset()
    }

    /// Binds `arguments`, then calls `body` for each row.
    package func forEachRow(
        _ arguments: StatementArguments = [], _ body: (Statement) throws -> Void
    ) throws {
        try bind(arguments)
        defer { reset() }
        while try step() {
            try body(self)
        }
    }

    /// Binds `arguments` and returns `transform` of the first row, or nil when there is none.
    /// Without arguments, the statement runs with the values bound last (`bind(_:at:)`, which a
    /// hot path calls to bind each value by its type rather than boxed in `arguments`).
    package func firstRow<T>(
        _ arguments: StatementArguments = [], _ transform: (Statement) throws -> T
    ) throws -> T? {
        try bind(arguments)
        defer { reset() }
        return try step() ? transform(self) : nil
    }

    // MARK: Reading columns of the current row

    /// Whether the 0-based column `index` of the current row is NULL.
    package func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Whether the 0-based column `index` of the current row is a blob (asked before its bytes
    /// are read, which makes a number text).
    package func isBlob(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_BLOB
    }

    /// The 0-based column `index` of the current row as an integer (NULL reads as 0).
    package func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The 0-based column `index` of the current row as an `Int` (NULL reads as 0).
    package func int(at index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    /// The 0-based column `index` of the current row as a double (NULL reads as 0).
    package func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// The 0-based column `index` of the current row as text, or nil for NULL.
    package func text(at index: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The bytes of the 0-based column `index` of the current row (a blob, or text as UTF-8);
    /// empty for NULL.
    package func bytes(at index: Int32) -> [UInt8] {
        withBytes(at: index) { Array($0) }
    }

    /// Calls `body` with the bytes of the 0-based column `index` of the current row (a blob,
    /// or text as UTF-8; empty for NULL), which are SQLite's, valid only during the call.
    package func withBytes<Result>(
        at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let pointer = sqlite3_column_blob(handle, index) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try body(
            UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// The 0-based column `index` of the current row as a ``DatabaseValue``.
    package func value(at index: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(double(at: index))
        case SQLITE_TEXT: return .text(text(at: index) ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let pointer = sqlite3_column_blob(handle, index) else {
                return .blob([])
            }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else {
            throw SQLiteError(connection: database.handle, code: code, sql: sql)
        }
    }
}
