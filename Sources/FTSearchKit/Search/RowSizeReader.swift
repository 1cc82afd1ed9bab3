import CSQLite
import FTSearchSQLite

/// Reads rows' size bytes from a ``RowSizes`` table through one incremental blob handle
/// (https://sqlite.org/c3ref/blob_open.html) kept on the current block: rows asked for in
/// rowid order cost one blob move per 2,048 rows, and a plain memory read for the others.
///
/// A reader that keeps blocks takes them from, and adds them to, its connection's
/// ``RowSizeBlocks``, read in a read transaction: then a connection's searches read each block
/// once between two changes to the index, not once a search (a one-letter prefix's rows are
/// in every block, about 490 at a million people).
final class RowSizeReader {
    private let database: Database
    private let sizes: RowSizes
    /// The connection's kept blocks of the table; nil for a reader that reads every block from
    /// the table (``RowSizes/isConsistent(in:)``, which checks the table itself).
    private let kept: RowSizeBlocks?
    /// The index's structure record, read at the first block (nil until then, and empty
    /// when blocks are not kept in this transaction).
    private var structure: [UInt8]?
    private var blob: OpaquePointer?
    /// The block whose bytes `bytes` points to, or that could not be read (then `isLoaded`
    /// is false).
    private var block: Int64?
    /// The current block's bytes: `buffer`, or a kept block.
    private var bytes: UnsafePointer<UInt8>
    /// Where a block not kept is read to.
    private let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: RowSizes.rowsPerBlock)
    private var isLoaded = false

    init(database: Database, sizes: RowSizes, keepsBlocks: Bool = true) {
        self.database = database
        self.sizes = sizes
        kept = keepsBlocks ? database.kept(RowSizeBlocks.Tables.self) { .init() }[sizes.table] : nil
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

    /// Points `bytes` at block `wanted`: one kept at this structure of the index, else
    /// the block read whole (2 KiB copied once is cheaper than a blob read per row), and kept.
    private func load(_ wanted: Int64) {
        block = wanted
        isLoaded = false
        if kept != nil, structure == nil { structure = keptStructure() }
        let structure = structure ?? []
        if let kept, !structure.isEmpty, let bytes = kept.block(wanted, structure: structure) {
            self.bytes = bytes
            isLoaded = true
            return
        }
        if let blob {
            // A failed move leaves the handle good only for closing.
            guard sqlite3_blob_reopen(blob, wanted) == SQLITE_OK else { return close() }
        } else {
            guard
                sqlite3_blob_open(database.handle, "main", sizes.table, "sizes", wanted, 0, &blob)
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
        if let kept, !structure.isEmpty {
            bytes = kept.keep(wanted, copying: buffer, structure: structure)
        }
    }

    /// The index's structure record, which tells kept blocks of this version of the index (see
    /// ``IndexStructure``): every write that changes a row's size changes the index too.
    /// Empty, so that nothing is kept or read from what was kept, outside a read transaction
    /// (the record and the blocks could then be of two versions) and in a write transaction
    /// (whose uncommitted changes FTS5 may not have written to the record yet).
    private func keptStructure() -> [UInt8] {
        guard sqlite3_txn_state(database.handle, "main") == SQLITE_TXN_READ else { return [] }
        return (try? IndexStructure.record(ofIndexNamed: sizes.index.name, in: database)) ?? []
    }

    /// Closes the blob handle; the next read opens another.
    func close() {
        if let blob { sqlite3_blob_close(blob) }
        blob = nil
    }
}

/// The blocks of one ``RowSizes`` table that a connection read, kept for as long as its
/// index's structure record (see ``IndexStructure``) stays the one they were read at: any
/// change to the index, by this connection or another, drops them. Used on its connection's
/// thread only, as the connection is.
final class RowSizeBlocks {
    /// The structure record the blocks were read at.
    private var structure: [UInt8] = []
    private var blocks: [Int64: UnsafeMutablePointer<UInt8>] = [:]
    /// At most this many blocks are kept (64 MiB, a table of 67 million rows); past it, the
    /// blocks kept so far are dropped.
    static let mostKept = 1 << 15

    deinit { dropAll() }

    /// Block `number` if it was kept at `structure`.
    func block(_ number: Int64, structure: [UInt8]) -> UnsafePointer<UInt8>? {
        guard structure == self.structure else { return nil }
        return blocks[number].map { UnsafePointer($0) }
    }

    /// Keeps a copy of block `number`, read at `structure`, and returns it.
    func keep(_ number: Int64, copying bytes: UnsafePointer<UInt8>, structure: [UInt8])
        -> UnsafePointer<UInt8>
    {
        if structure != self.structure || blocks.count >= Self.mostKept {
            dropAll()
            self.structure = structure
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
