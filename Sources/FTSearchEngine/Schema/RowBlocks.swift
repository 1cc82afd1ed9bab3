/// A table that keeps a few bytes for every row of a kind, in blocks by rowid: the one-byte row
/// sizes of an index (``RowSizes``) and the three-byte sort codes of a kind's records
/// (``SortCodes``). Ranking reads a row's bytes from its block, one blob move per block
/// for rows in rowid order (see ``RowBlockReader``), instead of a b-tree seek per row.
///
/// The table is `(block INTEGER PRIMARY KEY, <column> BLOB NOT NULL)`: block `id >> blockShift`
/// holds `rowsPerBlock` rows, row `id` at byte `(id & (rowsPerBlock - 1)) * bytesPerRow`. A block
/// fits one 4 KiB database page (2,048 bytes), or two share one (1,536). A row size where no
/// row is means nothing; a sort code there is zero, and tells that no record is (see
/// ``SortCodes``).
struct RowBlocks: Sendable, Equatable {
    let table: String
    let column: String
    /// The FTS5 index whose structure record (see ``IndexStructure``) changes with every write
    /// that changes these bytes: a connection keeps blocks read at one record until it changes.
    let versionedBy: String
    /// The rows of a block, a power of two.
    let rowsPerBlock: Int
    /// The bytes each row has.
    let bytesPerRow: Int

    /// The bytes of a block.
    var blockBytes: Int { rowsPerBlock * bytesPerRow }
    /// `id >> blockShift` is a row's block.
    var blockShift: Int64 { Int64(rowsPerBlock.trailingZeroBitCount) }

    @inline(__always)
    func block(ofRow id: Int64) -> Int64 { id >> blockShift }

    /// Where row `id`'s bytes begin in its block.
    @inline(__always)
    func offset(ofRow id: Int64) -> Int { Int(id & Int64(rowsPerBlock - 1)) * bytesPerRow }

    var createTableSQL: String {
        "CREATE TABLE IF NOT EXISTS \(table)(block INTEGER PRIMARY KEY, \(column) BLOB NOT NULL);"
    }

    var dropTableSQL: String { "DROP TABLE IF EXISTS \(table);" }

    var deleteAllSQL: String { "DELETE FROM \(table);" }

    /// Block `?1`'s bytes.
    var readBlockSQL: String { "SELECT \(column) FROM \(table) WHERE block = ?1" }

    /// Stores `?2` as block `?1`, in place of what it held.
    var writeBlockSQL: String {
        "INSERT OR REPLACE INTO \(table)(block, \(column)) VALUES (?1, ?2)"
    }
}
