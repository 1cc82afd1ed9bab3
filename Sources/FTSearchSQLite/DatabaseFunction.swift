import CSQLite

/// The arguments of a call of a function registered with
/// ``Database/createFunction(_:argumentCount:isDeterministic:isInnocuous:_:)``, read in place.
package struct FunctionArguments {
    private let values: UnsafeMutablePointer<OpaquePointer?>
    /// How many arguments the call has.
    package let count: Int

    fileprivate init(values: UnsafeMutablePointer<OpaquePointer?>, count: Int) {
        self.values = values
        self.count = count
    }

    /// Whether argument `index` (0-based) is NULL.
    package func isNull(at index: Int) -> Bool {
        sqlite3_value_type(values[index]) == SQLITE_NULL
    }

    /// Whether argument `index` is a blob (asked before its text is read, which makes it text).
    package func isBlob(at index: Int) -> Bool {
        sqlite3_value_type(values[index]) == SQLITE_BLOB
    }

    /// Argument `index` as an integer.
    package func int64(at index: Int) -> Int64 {
        sqlite3_value_int64(values[index])
    }

    /// Calls `body` with argument `index`'s UTF-8 text (empty for NULL), valid during the call.
    package func withText<Result>(
        at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let text = sqlite3_value_text(values[index])
        let count = Int(sqlite3_value_bytes(values[index]))
        return try body(UnsafeBufferPointer(start: text, count: text == nil ? 0 : count))
    }
}

extension Database {
    /// Registers `body` as the SQL function `name` of `argumentCount` arguments on this
    /// connection (https://sqlite.org/c3ref/create_function.html), as GRDB's
    /// `DatabaseFunction` does: its result is a blob; an ``SQLiteError`` it throws is the
    /// statement's error, with its code and message.
    ///
    /// ```swift
    /// try database.createFunction("reversed_bytes", argumentCount: 1) { arguments in
    ///     arguments.withText(at: 0) { Array($0.reversed()) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isDeterministic: The same arguments always give the same result, so SQLite may use
    ///     the function in indexes and factor calls out.
    ///   - isInnocuous: The function has no side effects, so triggers and views of a schema
    ///     that is not trusted may call it (https://sqlite.org/c3ref/c_deterministic.html).
    ///   - body: Runs on this connection's thread; it may run statements on this connection.
    package func createFunction(
        _ name: String, argumentCount: Int32, isDeterministic: Bool = true,
        isInnocuous: Bool = false,
        _ body: @escaping (FunctionArguments) throws(SQLiteError) -> [UInt8]
    ) throws(SQLiteError) {
        var flags = SQLITE_UTF8
        if isDeterministic { flags |= SQLITE_DETERMINISTIC }
        if isInnocuous { flags |= SQLITE_INNOCUOUS }
        let result = sqlite3_create_function_v2(
            handle, name, argumentCount, flags,
            Unmanaged.passRetained(FunctionBody(body)).toOpaque(),
            { context, count, values in
                guard let context, let values else { return }
                let function = Unmanaged<FunctionBody>.fromOpaque(sqlite3_user_data(context))
                    .takeUnretainedValue()
                do throws(SQLiteError) {
                    let bytes = try function.body(
                        FunctionArguments(values: values, count: Int(count)))
                    sqlite3_result_blob(context, bytes, Int32(bytes.count), csqlite_transient())
                } catch {
                    sqlite3_result_error(context, error.message, -1)
                    sqlite3_result_error_code(context, error.extendedResultCode)
                }
            }, nil, nil,
            { body in body.map { Unmanaged<FunctionBody>.fromOpaque($0).release() } })
        guard result == SQLITE_OK else {
            throw SQLiteError(connection: handle, code: result)
        }
    }
}

/// A registered function's Swift body, owned by SQLite until the function is dropped.
private final class FunctionBody {
    let body: (FunctionArguments) throws(SQLiteError) -> [UInt8]

    init(_ body: @escaping (FunctionArguments) throws(SQLiteError) -> [UInt8]) {
        self.body = body
    }
}
