import CSQLite

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
