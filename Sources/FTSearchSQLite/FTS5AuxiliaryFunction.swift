public import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The row an FTS5 auxiliary function is called for, and what FTS5 tells of it and of the
/// query (https://sqlite.org/fts5.html#custom_auxiliary_functions): the `Fts5ExtensionApi`
/// calls the engine's ranking makes. Each returns SQLite's result code and gives its answer
/// through its `inout` argument, as the C API does, so that a row costs no allocation and no
/// error boxing.
public struct FTS5Row {
    @usableFromInline let api: UnsafePointer<Fts5ExtensionApi>
    @usableFromInline let context: OpaquePointer

    fileprivate init(api: UnsafePointer<Fts5ExtensionApi>, context: OpaquePointer) {
        self.api = api
        self.context = context
    }

    /// The rowid of the row.
    @inlinable public var rowid: Int64 { api.pointee.xRowid(context) }

    /// The number of rows in the table (`xRowCount`).
    @inlinable public func rowCount(_ rows: inout Int64) -> Int32 {
        api.pointee.xRowCount(context, &rows)
    }

    /// The tokens in `column` of every row, or in every column for -1 (`xColumnTotalSize`).
    @inlinable public func columnTotalSize(_ column: Int32, _ tokens: inout Int64) -> Int32 {
        api.pointee.xColumnTotalSize(context, column, &tokens)
    }

    /// The tokens in `column` of this row, or in every column for -1 (`xColumnSize`).
    @inlinable public func columnSize(_ column: Int32, _ tokens: inout Int32) -> Int32 {
        api.pointee.xColumnSize(context, column, &tokens)
    }

    /// The number of phrase instances in this row (`xInstCount`).
    @inlinable public func instanceCount(_ count: inout Int32) -> Int32 {
        api.pointee.xInstCount(context, &count)
    }

    /// Instance `index`'s phrase, column and token offset (`xInst`).
    @inlinable public func instance(
        _ index: Int32, phrase: inout Int32, column: inout Int32, offset: inout Int32
    ) -> Int32 {
        api.pointee.xInst(context, index, &phrase, &column, &offset)
    }

    /// The number of rows phrase `phrase` of the query matches (`xQueryPhrase`, counting).
    package func rowCount(ofPhrase phrase: Int32, _ rows: inout Int64) -> Int32 {
        api.pointee.xQueryPhrase(context, phrase, &rows) { _, _, user in
            user?.assumingMemoryBound(to: Int64.self).pointee += 1
            return SQLITE_OK
        }
    }
}

/// The type of a pointer passed to SQL (https://sqlite.org/bindptr.html): a name that SQLite
/// compares by address, so it lives as long as the process.
package struct SQLPointerType: Sendable {
    nonisolated(unsafe) fileprivate let name: UnsafePointer<CChar>

    /// A type named `name`; make each once, as a static constant.
    package init(_ name: String) {
        self.name = UnsafePointer(strdup(name)!)
    }
}

extension Database {
    /// Registers the FTS5 auxiliary function `name` on this connection
    /// (https://sqlite.org/fts5.html#custom_auxiliary_functions). Its first argument is a
    /// pointer of `pointerType` (bound with ``Statement/bind(_:as:at:)``) to the object that
    /// does the work: `body` gets it with each matching row, and returns SQLite's result code;
    /// the function's value is 0, or that code as its error.
    package func registerFTS5Function(
        named name: String, pointerType: SQLPointerType,
        _ body: @escaping (UnsafeMutableRawPointer, FTS5Row) -> Int32
    ) throws(SQLiteError) {
        let api = try fts5API()
        let function = AuxiliaryFunction(name: name, pointerType: pointerType, body: body)
        let code = api.pointee.xCreateFunction(
            api, name, Unmanaged.passRetained(function).toOpaque(), AuxiliaryFunction.call,
            { function in function.map { Unmanaged<AuxiliaryFunction>.fromOpaque($0).release() } })
        guard code == SQLITE_OK else {
            throw SQLiteError(extendedResultCode: code, message: "cannot register \(name)")
        }
    }
}

extension Statement {
    /// Binds `object` as a pointer of `type` at the 1-based `index`
    /// (https://sqlite.org/bindptr.html). The caller keeps the object alive until the
    /// statement is reset.
    package func bind(_ object: AnyObject, as type: SQLPointerType, at index: Int32)
        throws(SQLiteError)
    {
        let pointer = Unmanaged.passUnretained(object).toOpaque()
        let code = sqlite3_bind_pointer(handle, index, pointer, type.name, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(extendedResultCode: code, message: "cannot bind")
        }
    }
}

/// A registered auxiliary function's name, pointer type and Swift body.
private final class AuxiliaryFunction {
    let name: String
    let pointerType: SQLPointerType
    let body: (UnsafeMutableRawPointer, FTS5Row) -> Int32

    init(
        name: String, pointerType: SQLPointerType,
        body: @escaping (UnsafeMutableRawPointer, FTS5Row) -> Int32
    ) {
        self.name = name
        self.pointerType = pointerType
        self.body = body
    }

    static let call: fts5_extension_function = { api, context, result, count, values in
        guard let api, let context, let userData = api.pointee.xUserData(context) else { return }
        let function = Unmanaged<AuxiliaryFunction>.fromOpaque(userData).takeUnretainedValue()
        guard count >= 1, let values,
            let pointer = sqlite3_value_pointer(values[0], function.pointerType.name)
        else {
            sqlite3_result_error(result, "\(function.name): missing pointer argument", -1)
            return
        }
        let code = function.body(pointer, FTS5Row(api: api, context: context))
        if code != SQLITE_OK {
            sqlite3_result_error_code(result, code)
            return
        }
        sqlite3_result_int(result, 0)
    }
}
