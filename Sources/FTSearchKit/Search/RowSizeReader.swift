import CSQLite
import FTSearchSQLite

/// Reads rows' size bytes from a ``RowSizes`` table through one incremental blob handle
/// (https://sqlite.org/c3ref/blob_open.html) kept on the current block: rows asked for in
/// rowid order cost one blob move per 2,048 rows, and a plain memory read for the others.
final class RowSizeReader {
    private let database: Database
    private let table: String
    private var blob: OpaquePointer?
    /// The block whose bytes are in `bytes`, or that could not be read (then `isLoaded` is
    /// false).
    private var block: Int64?
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: RowSizes.rowsPerBlock)
    private var isLoaded = false

    init(database: Database, table: String) {
        self.database = database
        self.table = table
    }

    deinit {
        close()
        bytes.deallocate()
    }

    /// The size byte of row `rowid` (``RowSizes/unknown`` when it says "read `%_docsize`"), or
    /// nil when its block cannot be read.
    func byte(ofRow rowid: Int64) -> UInt8? {
        let wanted = rowid >> RowSizes.blockShift
        if wanted != block { load(wanted) }
        return isLoaded ? bytes[Int(rowid & Int64(RowSizes.rowsPerBlock - 1))] : nil
    }

    /// Reads block `wanted` whole: 2 KiB copied once is cheaper than a blob read per row.
    private func load(_ wanted: Int64) {
        block = wanted
        isLoaded = false
        if let blob {
            // A failed move leaves the handle good only for closing.
            guard sqlite3_blob_reopen(blob, wanted) == SQLITE_OK else { return close() }
        } else {
            guard
                sqlite3_blob_open(database.handle, "main", table, "sizes", wanted, 0, &blob)
                    == SQLITE_OK
            else { return close() }
        }
        guard let blob else { return }
        let count = Int(sqlite3_blob_bytes(blob))
        guard count == RowSizes.rowsPerBlock else { return }
        // One buffer for every block: a search may move to hundreds of them.
        isLoaded = sqlite3_blob_read(blob, bytes, Int32(count), 0) == SQLITE_OK
    }

    /// Closes the blob handle; the next read opens another.
    func close() {
        if let blob { sqlite3_blob_close(blob) }
        blob = nil
    }
}
