import CSQLite

/// Reads one column's blobs row by row through an incremental blob handle
/// (https://sqlite.org/c3ref/blob_open.html): moving the handle to another row is a b-tree
/// seek (https://sqlite.org/c3ref/blob_reopen.html), several times cheaper than stepping a
/// statement for each row. The one blob reader of the engine: row blocks, FTS5's leaves, its row
/// sizes and the names that order ties are read through it.
///
/// ```swift
/// let reader = BlobReader(database: database, table: "people_fts_data", column: "block")
/// if reader.move(to: 10), let bytes = reader.bytes() { print(bytes.count) }
/// ```
///
/// A reader holds an open handle, which holds a read transaction on its connection while it
/// is positioned: ``close()`` it (or let it go) before the connection is closed or must end
/// its transaction. Not `Sendable`, like its ``Database``.
package final class BlobReader {
    /// The connection; unowned, since readers belong to objects the connection keeps.
    private unowned let database: Database
    package let table: String
    package let column: String
    private var blob: OpaquePointer?

    /// A reader of `table`'s `column`, positioned nowhere yet.
    package init(database: Database, table: String, column: String) {
        self.database = database
        self.table = table
        self.column = column
    }

    deinit { close() }

    /// Whether the reader holds a handle (it was moved to a row that had a blob, and not closed
    /// since).
    package var isOpen: Bool { blob != nil }

    /// Moves the reader to row `rowid`: true when the row exists and its value is a blob or a
    /// text. A failed move closes the handle (SQLite aborts it), and the next move opens one
    /// again.
    package func move(to rowid: Int64) -> Bool {
        if let blob {
            guard sqlite3_blob_reopen(blob, rowid) == SQLITE_OK else {
                close()
                return false
            }
            return true
        }
        var opened: OpaquePointer?
        guard
            sqlite3_blob_open(database.handle, "main", table, column, rowid, 0, &opened)
                == SQLITE_OK, let opened
        else {
            sqlite3_blob_close(opened)
            return false
        }
        blob = opened
        return true
    }

    /// The size of the current row's blob; 0 when the reader is not on a row.
    package var byteCount: Int {
        blob.map { Int(sqlite3_blob_bytes($0)) } ?? 0
    }

    /// Reads `buffer.count` bytes of the current row's blob from `offset` into `buffer`; false
    /// when the reader is not on a row, the bytes are not all there, or the handle was
    /// invalidated (a write to the row since the move).
    package func read(into buffer: UnsafeMutableRawBufferPointer, from offset: Int = 0) -> Bool {
        guard let blob, let base = buffer.baseAddress else { return buffer.isEmpty }
        return sqlite3_blob_read(blob, base, Int32(buffer.count), Int32(offset)) == SQLITE_OK
    }

    /// The whole blob of the current row; nil when it cannot be read.
    package func bytes() -> [UInt8]? {
        let count = byteCount
        guard isOpen else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let isRead = bytes.withUnsafeMutableBytes { read(into: $0) }
        return isRead ? bytes : nil
    }

    /// Appends row `rowid`'s bytes to `bytes`; false when they cannot be read (no such row, or
    /// a value that is neither text nor a blob).
    package func append(row rowid: Int64, to bytes: inout [UInt8]) -> Bool {
        guard move(to: rowid) else { return false }
        let count = byteCount
        guard count > 0 else { return true }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        return bytes.withUnsafeMutableBytes {
            read(into: UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
        }
    }

    /// Closes the handle; the next ``move(to:)`` opens another.
    package func close() {
        if let blob { sqlite3_blob_close(blob) }
        blob = nil
    }
}
