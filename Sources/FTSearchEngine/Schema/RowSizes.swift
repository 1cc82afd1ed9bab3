import FTSearchSQLite

/// The token count of every row of one of a kind's indexes, one byte a row, so that ranking
/// reads a row's size without a b-tree seek into FTS5's `%_docsize` table per row.
///
/// Each index has its table, named after it: `people_fts_sizes` for the word index (migration
/// 10), `people_substring_sizes` for the substring index (made with it, see ``IndexSync``).
/// `people_fts_sizes(block, sizes)` is a ``RowBlocks`` table of one byte a row, 2,048 rows a
/// block: the row's total token count when every column has fewer than 128 tokens (one varint
/// byte each in `%_docsize`) and the total is below 255, else 255, which means "read
/// `%_docsize`". Rows come in rowid order from FTS5, so a ranking moves its blob handle once
/// per block. Bytes of rows that are not indexed (deleted, or never written) mean nothing.
///
/// The index triggers write the byte of each row they index (see ``IndexSync``); imports,
/// which drop the triggers, rebuild the blocks of the rows they indexed; `check` compares every
/// indexed row's byte with `%_docsize` and `rebuild` makes the table again.
struct RowSizes {
    let kind: Kind
    /// The index whose rows' sizes these are.
    let index: FullTextIndex

    init(of index: FullTextIndex, kind: Kind) {
        self.kind = kind
        self.index = index
    }

    /// The sizes of `kind`'s word index.
    static func words(of kind: Kind) -> RowSizes { RowSizes(of: .words(of: kind), kind: kind) }

    /// Rows per block: `id >> 11` is the block, `id & 2047` the offset.
    static let rowsPerBlock = 2048
    /// The byte of a row whose size must be read from `%_docsize`.
    static let unknown: UInt8 = 255

    var table: String { index.sizesTable }
    /// The table's layout, versioned by the index.
    var blocks: RowBlocks {
        RowBlocks(
            table: table, column: "sizes", versionedBy: index.name,
            rowsPerBlock: Self.rowsPerBlock, bytesPerRow: 1)
    }
    private var docsize: String { index.name + "_docsize" }
    private var columnCount: Int { kind.searchableFields.count }

    /// The byte of a row whose `%_docsize` blob is `sizes` (one varint per column).
    static func byte(ofSizes sizes: [UInt8], columns: Int) -> UInt8 {
        guard sizes.count == columns else { return unknown }
        let total = sizes.reduce(0) { $0 + Int($1) }
        return total < Int(unknown) ? UInt8(total) : unknown
    }

    /// The trigger statements writing the byte of row `new.id`, once the word index has it:
    /// the same expression as ``byte(ofSizes:columns:)``, in SQL (see migration 10). The block
    /// is created with `WHERE NOT EXISTS`, not `INSERT OR IGNORE`: the conflict clause of the
    /// statement that fired the trigger (the store's upsert) would override `OR IGNORE`.
    var recordRowSQL: String {
        let digits = "'0123456789ABCDEF'"
        let total = (0..<columnCount).map { column in
            "(instr(\(digits), substr(h, \(2 * column + 1), 1)) * 16 + instr(\(digits), substr(h, \(2 * column + 2), 1)) - 17)"
        }.joined(separator: " + ")
        let bytes = "X'" + (0..<255).map { Self.hex($0) }.joined() + "'"
        return """
            INSERT INTO \(table)(block, sizes) SELECT new.id >> 11, zeroblob(2048) WHERE NOT EXISTS (SELECT 1 FROM \(table) WHERE block = new.id >> 11);
                UPDATE \(table) SET sizes = CAST(substr(sizes, 1, new.id & 2047) || ifnull((SELECT CASE WHEN length(sz) = \(columnCount) AND t < 255 THEN substr(\(bytes), t + 1, 1) ELSE X'FF' END FROM (SELECT sz, \(total) AS t FROM (SELECT sz, hex(sz) AS h FROM \(docsize) WHERE id = new.id))), X'FF') || substr(sizes, (new.id & 2047) + 2) AS BLOB) WHERE block = new.id >> 11;
            """
    }

    private static func hex(_ value: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return text.count == 1 ? "0" + text : text
    }

    /// Writes again every block holding a row with an id from `lower` through `upper`, from
    /// `%_docsize`.
    func rebuild(from lower: Int64, through upper: Int64, in database: Database) throws {
        let blocks = self.blocks
        let offsets = Int64(blocks.rowsPerBlock - 1)
        let first = lower & ~offsets
        let last = upper | offsets
        let rows = try database.cachedStatement(
            sql: "SELECT id, sz FROM \(docsize) WHERE id BETWEEN ?1 AND ?2 ORDER BY id")
        let write = try database.cachedStatement(sql: blocks.writeBlockSQL)
        var block: Int64?
        var bytes = [UInt8](repeating: 0, count: blocks.blockBytes)
        func flush() throws {
            guard let block else { return }
            try write.execute([block, bytes])
            bytes = [UInt8](repeating: 0, count: blocks.blockBytes)
        }
        try rows.forEachRow([first, last]) { row in
            let id = row.int64(at: 0)
            if blocks.block(ofRow: id) != block {
                try flush()
                block = blocks.block(ofRow: id)
            }
            bytes[blocks.offset(ofRow: id)] = Self.byte(
                ofSizes: row.bytes(at: 1), columns: columnCount)
        }
        try flush()
    }

    /// Writes again the blocks of the rows a bulk write stored.
    func rebuild(_ written: BulkWriteRows, in database: Database) throws {
        let highestIDBefore = written.highestIDBefore
        if highestIDBefore < Int64.max {
            try rebuild(from: highestIDBefore + 1, through: Int64.max, in: database)
        }
        let shift = blocks.blockShift
        var numbers: [Int64] = []
        try database.makeStatement(
            sql: "SELECT DISTINCT id >> \(shift) FROM \(written.listTable) WHERE id <= ?1"
        ).forEachRow([highestIDBefore]) { numbers.append($0.int64(at: 0)) }
        for number in numbers {
            try rebuild(from: number << shift, through: number << shift, in: database)
        }
    }

    /// Makes the whole table again from `%_docsize`.
    func rebuildAll(in database: Database) throws {
        try database.execute(sql: blocks.deleteAllSQL)
        try rebuild(from: Int64.min, through: Int64.max, in: database)
    }

    /// Whether every indexed row's byte is the one its `%_docsize` entry gives.
    func isConsistent(in database: Database) throws -> Bool {
        let reader = RowBlockReader(database: database, blocks: blocks, keepsBlocks: false)
        var isConsistent = true
        try database.makeStatement(sql: "SELECT id, sz FROM \(docsize) ORDER BY id").forEachRow {
            row in
            let expected = Self.byte(ofSizes: row.bytes(at: 1), columns: columnCount)
            if reader.byte(ofRow: row.int64(at: 0)) != expected { isConsistent = false }
        }
        return isConsistent
    }
}
