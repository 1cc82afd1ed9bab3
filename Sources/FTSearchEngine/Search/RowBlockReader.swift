import FTSearchSQLite

/// Reads rows' bytes from a ``RowBlocks`` table through one incremental blob handle
/// (https://sqlite.org/c3ref/blob_open.html) kept on the current block: rows asked for in
/// rowid order cost one blob move per block, and a plain memory read for the others.
///
/// A reader that keeps blocks takes them from, and adds them to, its connection's
/// ``KeptRowBlocks``, read in a read transaction: then a connection's searches read each block
/// once between two changes to the table's records, not once a search (a one-letter prefix's
/// rows are in every block).
final class RowBlockReader {
    private let database: Database
    private let blocks: RowBlocks
    /// The connection's kept blocks of the table; nil for a reader that reads every block from
    /// the table (a check of the table itself).
    private let kept: KeptRowBlocks?
    /// The versioning index's structure record, read at the first block (nil until then, and
    /// empty when blocks are not kept in this transaction).
    private var structure: [UInt8]?
    private let blob: BlobReader
    /// The block whose bytes `bytes` points to, or that could not be read (then `isLoaded`
    /// is false).
    private var block: Int64?
    /// The current block's bytes: `buffer`, or a kept block.
    private var bytes: UnsafePointer<UInt8>
    /// Where a block not kept is read to.
    private let buffer: UnsafeMutablePointer<UInt8>
    private var isLoaded = false
    /// The generation of `kept` last seen to hold blocks of `structure` (see
    /// ``keptBlocksAreCurrent(_:)``).
    private var keptGeneration = -1
    /// The generation of `kept` whose memory `bytes` points into; nil when it points into
    /// `buffer`. Another reader of the table on this connection may drop the blocks kept (a
    /// new structure record, or too many blocks), and then the block is loaded again.
    private var bytesGeneration: Int?

    init(database: Database, blocks: RowBlocks, keepsBlocks: Bool = true) {
        self.database = database
        self.blocks = blocks
        kept = keepsBlocks ? database.kept(KeptRowBlocks.Tables.self) { .init() }[blocks] : nil
        blob = BlobReader(database: database, table: blocks.table, column: blocks.column)
        buffer = .allocate(capacity: blocks.blockBytes)
        bytes = UnsafePointer(buffer)
    }

    deinit {
        close()
        buffer.deallocate()
    }

    /// The first of row `rowid`'s bytes (``RowBlocks/bytesPerRow`` of them), valid until the
    /// next read; nil when its block cannot be read.
    func bytes(ofRow rowid: Int64) -> UnsafePointer<UInt8>? {
        let wanted = blocks.block(ofRow: rowid)
        if wanted != block || (bytesGeneration != nil && bytesGeneration != kept?.generation) {
            load(wanted)
        }
        return isLoaded ? bytes + blocks.offset(ofRow: rowid) : nil
    }

    /// Calls `body` with the position in `rowids` and the first byte (see
    /// ``bytes(ofRow:)``) of each of those rows, in no set order; false when a block cannot be
    /// read (some rows then were not handed over). Rows asked for in block order move the
    /// reader once a block.
    ///
    /// Rows scattered over many blocks cost a cache miss each: the rows of kept blocks are
    /// handed over once every row's bytes are found, so that their reads do not wait for one
    /// another (a processor keeps a dozen misses in flight, not one); a block read into the
    /// reader's own buffer is handed over while it is there.
    func forEachRow(
        _ rowids: some Collection<Int64>, _ body: (Int, UnsafePointer<UInt8>) -> Void
    ) -> Bool {
        var deferred: [(position: Int, bytes: UnsafePointer<UInt8>)] = []
        deferred.reserveCapacity(rowids.count)
        var deferredGeneration: Int?
        for (position, rowid) in rowids.enumerated() {
            guard let bytes = bytes(ofRow: rowid) else { return false }
            guard let generation = bytesGeneration, deferredGeneration ?? generation == generation
            else {
                body(position, bytes)
                continue
            }
            deferredGeneration = generation
            deferred.append((position, bytes))
        }
        // Kept blocks stay until the next generation: then they were dropped, and the rows
        // deferred are read again one by one.
        guard deferredGeneration == nil || deferredGeneration == kept?.generation else {
            let positions = Set(deferred.map(\.position))
            for (position, rowid) in rowids.enumerated() where positions.contains(position) {
                guard let bytes = bytes(ofRow: rowid) else { return false }
                body(position, bytes)
            }
            return true
        }
        for row in deferred { body(row.position, row.bytes) }
        return true
    }

    /// Row `rowid`'s byte, for a table of one byte a row.
    func byte(ofRow rowid: Int64) -> UInt8? { bytes(ofRow: rowid)?.pointee }

    /// Points `bytes` at block `wanted`: one kept at this structure of the index, else
    /// the block read whole (2 KiB copied once is cheaper than a blob read per row), and kept.
    private func load(_ wanted: Int64) {
        block = wanted
        isLoaded = false
        bytesGeneration = nil
        if let kept, keptBlocksAreCurrent(kept), let bytes = kept.block(wanted) {
            self.bytes = bytes
            bytesGeneration = kept.generation
            isLoaded = true
            return
        }
        guard blob.move(to: wanted), blob.byteCount == blocks.blockBytes,
            blob.read(
                into: UnsafeMutableRawBufferPointer(start: buffer, count: blocks.blockBytes))
        else { return }
        isLoaded = true
        bytes = UnsafePointer(buffer)
        if let kept, let structure, !structure.isEmpty {
            bytes = kept.keep(wanted, copying: buffer, structure: structure)
            bytesGeneration = kept.generation
        }
    }

    /// Whether `kept` holds blocks of this reader's structure record: at once while its
    /// generation is the one last seen to, else by comparing the records, which is then done
    /// once a reader, not once a block (a search of few matches reads a block a row).
    @inline(__always)
    private func keptBlocksAreCurrent(_ kept: KeptRowBlocks) -> Bool {
        if keptGeneration == kept.generation { return true }
        if structure == nil { structure = keptStructure() }
        guard let structure, !structure.isEmpty, kept.isKept(at: structure) else { return false }
        keptGeneration = kept.generation
        return true
    }

    /// The versioning index's structure record, which tells kept blocks of this version of the
    /// table (see ``IndexStructure``). Empty, so that nothing is kept or read from what was
    /// kept, outside a transaction (the record and the blocks could then be of two versions)
    /// and in a write transaction (whose uncommitted changes FTS5 may not have written to the
    /// record yet). In a transaction that has not read yet, reading the record begins its
    /// read.
    private func keptStructure() -> [UInt8] {
        guard !database.isAutocommit, !database.isWriting else { return [] }
        return (try? IndexStructure.record(ofIndexNamed: blocks.versionedBy, in: database)) ?? []
    }

    /// Closes the blob handle; the next read opens another.
    func close() {
        blob.close()
    }
}

/// The blocks of one ``RowBlocks`` table that a connection read, kept for as long as its
/// versioning index's structure record (see ``IndexStructure``) stays the one they were read
/// at: any change to the index, by this connection or another, drops them. Used on its
/// connection's thread only, as the connection is.
final class KeptRowBlocks {
    /// The structure record the blocks were read at.
    private var structure: [UInt8] = []
    /// The blocks kept, by number: those below ``mostKept`` (the ids SQLite gives are small)
    /// in an array, looked up without hashing (a search of few matches reads a block a row),
    /// any others in a dictionary. Not checked for exclusive access at run time (the check
    /// cost more than the lookup): only ``keep(_:copying:structure:)`` and ``dropAll()``
    /// change them, and nothing they call reads them.
    @exclusivity(unchecked) private var lowBlocks: [UnsafeMutablePointer<UInt8>?] = []
    @exclusivity(unchecked) private var otherBlocks: [Int64: UnsafeMutablePointer<UInt8>] = [:]
    private var keptCount = 0
    /// The bytes of a block.
    private let blockBytes: Int
    /// Counts the times the blocks were dropped (and their memory freed).
    private(set) var generation = 0
    /// At most this many blocks are kept (64 MiB of row sizes, 67 million rows; 48 MiB of sort
    /// codes, 16 million); past it, the blocks kept so far are dropped.
    static let mostKept = 1 << 15

    init(blockBytes: Int) {
        self.blockBytes = blockBytes
    }

    deinit { dropAll() }

    /// Whether the blocks kept were read at `structure`; they stay so until ``generation``
    /// changes.
    func isKept(at structure: [UInt8]) -> Bool { structure == self.structure }

    /// Block `number`, if it was kept (see ``isKept(at:)``).
    func block(_ number: Int64) -> UnsafePointer<UInt8>? {
        let block =
            number >= 0 && number < Int64(lowBlocks.count)
            ? lowBlocks[Int(number)] : otherBlocks[number]
        return block.map { UnsafePointer($0) }
    }

    /// Keeps a copy of block `number`, read at `structure`, and returns it.
    func keep(_ number: Int64, copying bytes: UnsafePointer<UInt8>, structure: [UInt8])
        -> UnsafePointer<UInt8>
    {
        if structure != self.structure || keptCount >= Self.mostKept {
            dropAll()
            self.structure = structure
        }
        let copy: UnsafeMutablePointer<UInt8>
        if let kept = self.block(number) {
            copy = UnsafeMutablePointer(mutating: kept)
        } else {
            copy = .allocate(capacity: blockBytes)
            keptCount += 1
            if number >= 0 && number < Int64(Self.mostKept) {
                if number >= Int64(lowBlocks.count) {
                    lowBlocks += repeatElement(nil, count: Int(number) + 1 - lowBlocks.count)
                }
                lowBlocks[Int(number)] = copy
            } else {
                otherBlocks[number] = copy
            }
        }
        copy.update(from: bytes, count: blockBytes)
        return UnsafePointer(copy)
    }

    private func dropAll() {
        for case let block? in lowBlocks { block.deallocate() }
        for block in otherBlocks.values { block.deallocate() }
        lowBlocks.removeAll()
        otherBlocks.removeAll()
        keptCount = 0
        generation += 1
    }

    /// A connection's kept blocks, by table.
    final class Tables {
        private var tables: [String: KeptRowBlocks] = [:]

        subscript(table: RowBlocks) -> KeptRowBlocks {
            if let blocks = tables[table.table] { return blocks }
            let blocks = KeptRowBlocks(blockBytes: table.blockBytes)
            tables[table.table] = blocks
            return blocks
        }
    }
}
