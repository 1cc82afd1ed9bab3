import CSQLite

/// Reads one text column of rows picked by rowid through an incremental blob handle
/// (https://sqlite.org/c3ref/blob_open.html): moving to another row is one b-tree seek, with
/// no statement to step.
package final class ColumnReader {
    private let database: Database
    private let table: String
    private let column: String
    private var blob: OpaquePointer?

    package init(database: Database, table: String, column: String) {
        self.database = database
        self.table = table
        self.column = column
    }

    deinit {
        if let blob { sqlite3_blob_close(blob) }
    }

    /// Appends the column's bytes in row `rowid` to `bytes`; false when it cannot be read
    /// (no such row, or a value that is not text).
    package func append(row rowid: Int64, to bytes: inout [UInt8]) -> Bool {
        if let blob {
            guard sqlite3_blob_reopen(blob, rowid) == SQLITE_OK else { return false }
        } else {
            guard
                sqlite3_blob_open(database.handle, "main", table, column, rowid, 0, &blob)
                    == SQLITE_OK
            else {
                sqlite3_blob_close(blob)
                blob = nil
                return false
            }
        }
        guard let blob else { return false }
        let count = Int(sqlite3_blob_bytes(blob))
        guard count > 0 else { return true }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        return bytes.withUnsafeMutableBufferPointer { buffer in
            sqlite3_blob_read(blob, buffer.baseAddress! + start, Int32(count), 0) == SQLITE_OK
        }
    }
}

extension Statement {
    /// Binds UTF-8 `bytes` as text to the 1-based parameter `index` (SQLite copies them).
    package func bind(utf8 bytes: UnsafeBufferPointer<UInt8>, at index: Int32)
        throws(SQLiteError)
    {
        let code: Int32
        if let base = bytes.baseAddress, bytes.count > 0 {
            code = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, index, $0, Int32(bytes.count), csqlite_transient())
            }
        } else {
            code = sqlite3_bind_text(handle, index, "", 0, nil)
        }
        guard code == SQLITE_OK else {
            throw SQLiteError(extendedResultCode: code, message: "cannot bind text", sql: sql)
        }
    }
}
