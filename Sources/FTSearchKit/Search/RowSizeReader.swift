import CSQLite
import FTSearchSQLite

/// Reads rows' size bytes from a ``RowSizes`` table through one incremental blob handle
/// (https://sqlite.org/c3ref/blob_open.html) kept on the current block: rows asked for in
/// rowid order cost one blob move per 2,048 rows, and a plain memory read for the others.
///
/// A reader that keeps blocks takes them from, and adds them to, its connection's
/// ``RowSizeBlocks``, while the database is unchanged: then a connection's searches read each
/// block once between two writes, not once a search (a one-letter prefix's rows are in every
/// block, about 490 at a million people).
final class RowSizeReader {
    private let database: Database
    private let table: String
    /// The connection's kept blocks of `table`; nil for a reader that reads every block from
    /// the table (``RowSizes/isConsistent(in:)``, which checks the table itself).
    private let kept: RowSizeBlocks?
    private var blob: OpaquePointer?
    /// The block whose bytes `bytes` points to, or that could not be read (then `isLoaded`
    /// is false).
    private var block: Int64?
    /// The current block's bytes: `buffer`, or a kept block.
    private var bytes: UnsafePointer<UInt8>
    /// Where a block not kept is read to.
    private let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: RowSizes.rowsPerBlock)
    private var isLoaded = false

    init(database: Database, table: String, keepsBlocks: Bool = true) {
        self.database = database
        self.table = table
        kept = keepsBlocks ? database.kept(RowSizeBlocks.Tables.self) { .init() }[table] : nil
        bytes = UnsafePointer(buffer)
    }

    deinit {
        close()
        buffer.deallocate()
    }

    /// The size byte of row `rowid` (``RowSizes/unknown`` when it says "read `%_docsize`"), or
    /// nil when its block cannot be read.
    func byte(ofRow rowid: Int64) -> UInt8? {
        let wanted = rowid >> RowSizes.blockShift
        if wanted != block { load(wanted) }
        return isLoaded ? bytes[Int(rowid & Int64(RowSizes.rowsPerBlock - 1))] : nil
    }

    /// Points `bytes` at block `wanted`: a kept one of this version of the database, else the
    /// block read whole (2 KiB copied once is cheaper than a blob read per row), and kept.
    private func load(_ wanted: Int64) {
        block = wanted
        isLoaded = false
        let version = kept == nil ? nil : database.dataVersionInReadTransaction
        if let kept, let version, let bytes = kept.block(wanted, version: version) {
            self.bytes = bytes
            isLoaded = true
            return
        }
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
        guard count == RowSizes.rowsPerBlock,
            sqlite3_blob_read(blob, buffer, Int32(count), 0) == SQLITE_OK
        else { return }
        isLoaded = true
        bytes = UnsafePointer(buffer)
        if let kept, let version {
            bytes = kept.keep(wanted, copying: buffer, version: version)
        }
    }

    /// Closes the blob handle; the next read opens another.
    func close() {
        if let blob { sqlite3_blob_close(blob) }
        blob = nil
    }
}

/// The blocks of one ``RowSizes`` table that a connection read, kept for as long as the
/// database's data version (``FTSearchSQLite/Database/dataVersionInReadTransaction``) stays
/// the one they were read at: any commit, by this connection or another, drops them. Used on
/// its connection's thread only, as the connection is.
final class RowSizeBlocks {
    /// The data version the blocks were read at.
    private var version: UInt32?
    private var blocks: [Int64: UnsafeMutablePointer<UInt8>] = [:]
    /// At most this many blocks are kept (64 MiB, a table of 67 million rows); past it, the
    /// blocks kept so far are dropped.
    static let mostKept = 1 << 15

    deinit { dropAll() }

    /// Block `number` if it was kept at `version`.
    func block(_ number: Int64, version: UInt32) -> UnsafePointer<UInt8>? {
        guard version == self.version else { return nil }
        return blocks[number].map { UnsafePointer($0) }
    }

    /// Keeps a copy of block `number`, read at `version`, and returns it.
    func keep(_ number: Int64, copying bytes: UnsafePointer<UInt8>, version: UInt32)
        -> UnsafePointer<UInt8>
    {
        if version != self.version || blocks.count >= Self.mostKept {
            dropAll()
            self.version = version
        }
        let copy = blocks[number] ?? .allocate(capacity: RowSizes.rowsPerBlock)
        copy.update(from: bytes, count: RowSizes.rowsPerBlock)
        blocks[number] = copy
        return UnsafePointer(copy)
    }

    private func dropAll() {
        for block in blocks.values { block.deallocate() }
        blocks.removeAll()
    }

    /// A connection's kept blocks, by table.
    final class Tables {
        private var tables: [String: RowSizeBlocks] = [:]

        subscript(table: String) -> RowSizeBlocks {
            if let blocks = tables[table] { return blocks }
            let blocks = RowSizeBlocks()
            tables[table] = blocks
            return blocks
        }
    }
}
