import CSQLite
import FTSearchSQLite

/// The first three bytes of every record's sort key (see ``SortName``), folded as NOCASE folds
/// them, in a ``RowBlocks`` table of 512 rows a block, two blocks a page (`people_sort_codes`,
/// `animals_sort_codes`, migration 12): ordering a big group of equal scores reads a code from
/// a block for each row instead of a b-tree seek into the records, and reads the whole keys of
/// only the few rows the codes cannot place (see ``SortCodeTable``).
///
/// A code orders as its key does: when one row's code is below another's, its key sorts first
/// (``code(ofKey:)``); equal codes tell nothing. A record's code is never zero: zero marks an id
/// with no record (never used, deleted, or moved away), so the table also tells which records
/// exist, and listing everything in name order reads it alone (see ``everyRecord(in:)``;
/// migration 13, which dropped the sort-name indexes). A code is not a rank, so a write changes
/// only its own row's. Triggers of their own (beside the index triggers) write the code of each
/// row inserted or renamed, with the `ftsearch_sort_code` SQL function, and zero the code of a
/// row deleted or moved to another id; imports, which drop them, write the codes of the records
/// they store (``Pending``); `check` compares every record's code with its key and counts the
/// codes against the records, and `rebuild` makes the table again.
struct SortCodes {
    let kind: Kind

    init(of kind: Kind) {
        self.kind = kind
    }

    var table: String { kind.tableName + "_sort_codes" }

    /// The table's layout, versioned by the kind's word index (every write to a sort name
    /// writes that index).
    var blocks: RowBlocks {
        RowBlocks(
            table: table, column: "codes", versionedBy: kind.indexName, rowsPerBlock: 512,
            bytesPerRow: Self.length)
    }

    /// The bytes of a code.
    static let length = 3

    /// The code of a sort key: its first ``length`` bytes with ASCII letters in lower case, up
    /// to a NUL byte, then zeros, read as a big-endian number; 1 for a key whose bytes give 0
    /// (an empty key, or one that begins with NUL), since 0 marks an id with no record.
    ///
    /// Why a lower code sorts first: at the first byte where two codes differ, either both keys
    /// have a byte there other than NUL, and NOCASE compares those; or the lower code's key
    /// ends there (it is shorter, and sorts first) or has a NUL there, where NOCASE stops and
    /// compares NUL with the other key's byte. Every byte before is equal and not NUL. No key's
    /// bytes give 1 (after a NUL come only zeros), and every other key's code is above it.
    static func code(ofKey key: some Sequence<UInt8>) -> UInt32 {
        var code = Code()
        for byte in key {
            guard !code.isWhole else { break }
            code.append(byte)
        }
        return max(code.value, 1)
    }

    /// The code of `record`'s sort name: its ``SortName/columns(of:)`` joined by a space, as
    /// the key joins them.
    static func code(ofSortNameOf record: Record) -> UInt32 {
        var code = Code()
        for (position, column) in sortColumns[record.kind, default: []].enumerated() {
            guard !code.isWhole else { break }
            if position > 0 { code.append(0x20) }
            var value = record.searchableValues[column]
            value.withUTF8 { bytes in
                for byte in bytes {
                    guard !code.isWhole else { break }
                    code.append(byte)
                }
            }
        }
        return max(code.value, 1)
    }

    /// Where each kind's sort name columns are among its searchable values.
    private static let sortColumns = Dictionary(
        uniqueKeysWithValues: Kind.allCases.map { kind in
            (
                kind,
                SortName.columns(of: kind).compactMap { kind.searchableFields.firstIndex(of: $0) }
            )
        })

    /// A code made a byte at a time.
    private struct Code {
        private var bits: UInt32 = 0
        private var count = 0
        private var hasEnded = false

        var isWhole: Bool { count == length }

        /// The code of the bytes appended (zeros after them).
        var value: UInt32 { bits << (8 * UInt32(length - count)) }

        mutating func append(_ byte: UInt8) {
            let byte = hasEnded ? 0 : SortName.lowercased(byte)
            hasEnded = byte == 0
            bits = bits << 8 | UInt32(byte)
            count += 1
        }
    }

    /// The name of the SQL function the triggers call: `ftsearch_sort_code(key)`, the code of a
    /// text as ``length`` bytes (see ``bytes(of:)``).
    static let functionName = "ftsearch_sort_code"

    /// The code of a sort name that is not text (an animal's name another program wrote as a
    /// blob), which SQLite sorts after every text: the highest, which only a text beginning
    /// with three 0xFF bytes shares (equal codes tell nothing).
    static let ofNonText: UInt32 = 0xFF_FFFF

    /// Registers ``functionName`` on `database` (deterministic and innocuous, so that triggers
    /// may call it).
    ///
    /// Migrations 12 and 13 fill the codes with it, so a change to what it gives is a change
    /// those migrations ship only with a later migration that fills the codes again, as 13 did
    /// when an empty name's code became 1 and a blob's ``ofNonText``.
    static func registerFunction(on database: Database) throws(SQLiteError) {
        let result = sqlite3_create_function_v2(
            database.handle, functionName, 1,
            SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil,
            { context, _, values in
                guard let context, let value = values?[0] else { return }
                // Asked before the text is read, which makes the value text.
                let isBlob = sqlite3_value_type(value) == SQLITE_BLOB
                let text = sqlite3_value_text(value)
                let count = Int(sqlite3_value_bytes(value))
                let key = UnsafeBufferPointer(start: text, count: text == nil ? 0 : count)
                let code = SortCodes.bytes(
                    of: isBlob ? SortCodes.ofNonText : SortCodes.code(ofKey: key))
                sqlite3_result_blob(context, code, Int32(code.count), csqlite_transient())
            }, nil, nil, nil)
        guard result == SQLITE_OK else {
            throw SQLiteError(connection: database.handle, code: result)
        }
    }

    /// The triggers writing the code of each record inserted or renamed, and zeroing the code
    /// of each record deleted or moved to another id (as migrations 12 and 13 created them;
    /// dropped and restored by ``BulkWriter`` with the index triggers).
    var createTriggersSQL: String {
        let (rows, shift) = (blocks.rowsPerBlock, blocks.blockShift)
        func offset(_ row: String) -> String { "(\(row).id & \(rows - 1)) * \(Self.length)" }
        func update(_ row: String, to code: String) -> String {
            "UPDATE \(table) SET codes = CAST(substr(codes, 1, \(offset(row))) || \(code) || "
                + "substr(codes, \(offset(row)) + \(Self.length + 1)) AS BLOB) "
                + "WHERE block = \(row).id >> \(shift)"
        }
        let zero = "X'" + String(repeating: "00", count: Self.length) + "'"
        let write = """
            INSERT INTO \(table)(block, codes) SELECT new.id >> \(shift), zeroblob(\(blocks.blockBytes)) WHERE NOT EXISTS (SELECT 1 FROM \(table) WHERE block = new.id >> \(shift));
                \(update("new", to: "\(Self.functionName)(\(SortName.sql(of: kind, table: "new")))"));
            """
        let columns = (["id"] + SortName.columns(of: kind)).joined(separator: ", ")
        return """
            CREATE TRIGGER \(kind.tableName)_sort_code_insert AFTER INSERT ON \(kind.tableName) BEGIN
                \(write)
            END;
            CREATE TRIGGER \(kind.tableName)_sort_code_update AFTER UPDATE OF \(columns) ON \(kind.tableName) BEGIN
                \(update("old", to: zero)) AND old.id <> new.id;
                \(write)
            END;
            CREATE TRIGGER \(kind.tableName)_sort_code_delete AFTER DELETE ON \(kind.tableName) BEGIN
                \(update("old", to: zero));
            END;
            """
    }

    var dropTriggersSQL: String {
        """
        DROP TRIGGER \(kind.tableName)_sort_code_insert;
        DROP TRIGGER \(kind.tableName)_sort_code_update;
        DROP TRIGGER \(kind.tableName)_sort_code_delete;
        """
    }

    /// The codes of the records, read with the SQL function, by id.
    private var codesSQL: String {
        "SELECT id, \(Self.functionName)(\(SortName.sql(of: kind))) FROM \(kind.tableName) ORDER BY id"
    }

    /// A code's bytes, most significant first, as the table and the SQL function hold it.
    static func bytes(of code: UInt32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: length)
        store(code, in: &bytes, at: 0)
        return bytes
    }

    /// Puts `code`'s bytes (see ``bytes(of:)``) in `bytes` from `offset` on.
    static func store(_ code: UInt32, in bytes: inout [UInt8], at offset: Int) {
        for index in 0..<length {
            bytes[offset + index] = UInt8(truncatingIfNeeded: code >> (8 * (length - 1 - index)))
        }
    }

    /// The code `bytes` hold (see ``bytes(of:)``); nil when they are not ``length`` bytes.
    static func code(ofBytes bytes: some Collection<UInt8>) -> UInt32? {
        bytes.count == length ? bytes.reduce(0) { $0 << 8 | UInt32($1) } : nil
    }

    /// Makes the whole table again from the records.
    func rebuildAll(in database: Database) throws {
        try database.execute(sql: blocks.deleteAllSQL)
        var pending = Pending(blocks: blocks)
        try database.makeStatement(sql: codesSQL).forEachRow { row in
            pending.set(Self.code(ofBytes: row.bytes(at: 1)) ?? 0, ofRow: row.int64(at: 0))
        }
        try pending.write(in: database)
    }

    /// Whether every record's code is the one its sort key gives, and no id without a record
    /// has a code.
    func isConsistent(in database: Database) throws -> Bool {
        try database.readingOneVersion {
            let reader = RowBlockReader(database: database, blocks: blocks, keepsBlocks: false)
            defer { reader.close() }
            var isConsistent = true
            var records = 0
            try database.makeStatement(sql: codesSQL).forEachRow { row in
                let code = Self.code(ofBytes: row.bytes(at: 1))
                if code == nil || reader.code(ofRow: row.int64(at: 0)) != code {
                    isConsistent = false
                }
                records += 1
            }
            return try isConsistent && everyRecord(in: database).count == records
        }
    }

    /// Every id that has a code, which is every record's (see ``SortCodes``), with its code,
    /// in id order: the table read whole (3 bytes a record, and the empty slots of its
    /// blocks).
    func everyRecord(in database: Database) throws -> RecordCodes {
        var codes = RecordCodes(rowsPerBlock: blocks.rowsPerBlock)
        try database.cachedStatement(sql: "SELECT block, codes FROM \(table) ORDER BY block")
            .forEachRow { row in codes.append(block: row.int64(at: 0), row.bytes(at: 1)) }
        return codes
    }

    /// Codes of records an import stores, kept in memory by block and written when it
    /// finishes (its triggers are dropped): the blocks it filled whole as they are, the
    /// others over what the table has.
    struct Pending {
        let blocks: RowBlocks
        private var written: [Int64: Block] = [:]
        /// The block of the last code set (an import's new rows come in id order).
        private var last: (number: Int64, block: Block)?

        private final class Block {
            var bytes: [UInt8]
            /// Which rows' codes were set, a bit a row.
            var isSet: [UInt64]

            init(_ blocks: RowBlocks) {
                bytes = [UInt8](repeating: 0, count: blocks.blockBytes)
                isSet = [UInt64](repeating: 0, count: (blocks.rowsPerBlock + 63) / 64)
            }

            func isSet(_ row: Int) -> Bool { isSet[row >> 6] & (1 << (row & 63)) != 0 }

            /// Whether every row's code was set.
            var isWhole: Bool {
                isSet.reduce(0) { $0 + $1.nonzeroBitCount } == bytes.count / SortCodes.length
            }
        }

        init(blocks: RowBlocks) {
            self.blocks = blocks
        }

        /// Sets row `id`'s code.
        mutating func set(_ code: UInt32, ofRow id: Int64) {
            let block = self.block(blocks.block(ofRow: id))
            let row = Int(id & Int64(blocks.rowsPerBlock - 1))
            SortCodes.store(code, in: &block.bytes, at: row * SortCodes.length)
            block.isSet[row >> 6] |= 1 << (row & 63)
        }

        private static func bytes(ofRow row: Int) -> Range<Int> {
            row * SortCodes.length..<(row + 1) * SortCodes.length
        }

        private mutating func block(_ number: Int64) -> Block {
            if let last, last.number == number { return last.block }
            let block = written[number] ?? Block(blocks)
            written[number] = block
            last = (number, block)
            return block
        }

        /// Row `id`'s code, when it was set.
        func code(ofRow id: Int64) -> UInt32? {
            guard let block = written[blocks.block(ofRow: id)] else { return nil }
            let row = Int(id & Int64(blocks.rowsPerBlock - 1))
            guard block.isSet(row) else { return nil }
            return SortCodes.code(ofBytes: block.bytes[Self.bytes(ofRow: row)])
        }

        /// Writes every block a code was set in.
        func write(in database: Database) throws {
            let read = try database.makeStatement(sql: blocks.readBlockSQL)
            let write = try database.makeStatement(sql: blocks.writeBlockSQL)
            for (number, block) in written {
                var bytes = block.bytes
                if !block.isWhole,
                    var stored = try read.firstRow([number], { $0.bytes(at: 0) }),
                    stored.count == blocks.blockBytes
                {
                    for row in 0..<blocks.rowsPerBlock where block.isSet(row) {
                        stored.replaceSubrange(
                            Self.bytes(ofRow: row), with: bytes[Self.bytes(ofRow: row)])
                    }
                    bytes = stored
                }
                try write.execute([number, bytes])
            }
        }
    }
}

extension SortCodes {
    /// The code of a row whose bytes in a ``SortCodes`` table begin at `bytes`.
    static func code(ofBytesAt bytes: UnsafePointer<UInt8>) -> UInt32 {
        // ``length`` bytes: a code.
        code(ofBytes: UnsafeBufferPointer(start: bytes, count: length))!
    }
}

extension RowBlockReader {
    /// Row `rowid`'s code, from a ``SortCodes`` table; nil when its block cannot be read.
    func code(ofRow rowid: Int64) -> UInt32? {
        bytes(ofRow: rowid).map(SortCodes.code(ofBytesAt:))
    }
}

/// The codes of every id that has one (see ``SortCodes/everyRecord(in:)``), as the table holds
/// them: each block's bytes after the last's, in block order.
struct RecordCodes {
    let rowsPerBlock: Int
    private var blocks: [Int64] = []
    private var bytes: [UInt8] = []

    init(rowsPerBlock: Int) {
        self.rowsPerBlock = rowsPerBlock
    }

    /// Adds the codes of block `number` (read as zeros where `codes` is too short).
    mutating func append(block number: Int64, _ codes: [UInt8]) {
        let length = rowsPerBlock * SortCodes.length
        blocks.append(number)
        bytes += codes.prefix(length)
        bytes += repeatElement(0, count: Swift.max(0, length - codes.count))
    }

    /// Calls `body` with each id that has a code, and its code, in id order: one pass over the
    /// bytes in place.
    func forEach(_ body: (_ rowid: Int64, _ code: UInt32) throws -> Void) rethrows {
        try bytes.withUnsafeBufferPointer { bytes in
            var at = 0
            for block in blocks {
                let first = block &* Int64(rowsPerBlock)
                for row in 0..<rowsPerBlock {
                    let code = SortCodes.code(
                        ofBytes: UnsafeBufferPointer(rebasing: bytes[at..<at + SortCodes.length]))
                    at += SortCodes.length
                    if let code, code != 0 { try body(first &+ Int64(row), code) }
                }
            }
        }
    }

    /// How many ids have a code.
    var count: Int {
        var count = 0
        forEach { _, _ in count += 1 }
        return count
    }
}
