import CSQLite
import FTSearchSQLite

/// Reads rows' size bytes from a ``RowSizes`` table through one incremental blob handle
/// (https://sqlite.org/c3ref/blob_open.html) kept on the current block: rows asked for in
/// rowid order cost one blob move per 2,048 rows, and a plain memory read for the others.
final class RowSizeReader {
    private let database: Database
    private let table: String
    private var blob: OpaquePointer?
    /// The block whose bytes are in `bytes`, or that could not be read (then `bytes` is empty).
    private var block: Int64?
    private var bytes: [UInt8] = []

    init(database: Database, table: String) {
        self.database = database
        self.table = table
    }

    deinit { close() }

    /// The size byte of row `rowid` (``RowSizes/unknown`` when it says "read `%_docsize`"), or
    /// nil when its block cannot be read.
    func byte(ofRow rowid: Int64) -> UInt8? {
        let wanted = rowid >> RowSizes.blockShift
        if wanted != block { load(wanted) }
        let offset = Int(rowid & Int64(RowSizes.rowsPerBlock - 1))
        return offset < bytes.count ? bytes[offset] : nil
    }

    /// Reads block `wanted` whole: 2 KiB copied once is cheaper than a blob read per row.
    private func load(_ wanted: Int64) {
        block = wanted
        bytes.removeAll(keepingCapacity: true)
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
        // The storage of the last block is reused: a search may move to hundreds of blocks.
        bytes.append(contentsOf: repeatElement(0, count: count))
        let code = bytes.withUnsafeMutableBufferPointer { buffer in
            sqlite3_blob_read(blob, buffer.baseAddress, Int32(count), 0)
        }
        if code != SQLITE_OK { bytes.removeAll(keepingCapacity: true) }
    }

    /// Closes the blob handle; the next read opens another.
    func close() {
        if let blob { sqlite3_blob_close(blob) }
        blob = nil
    }
}
