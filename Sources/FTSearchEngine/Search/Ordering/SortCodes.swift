package import FTSearchSQLite

/// A three-byte code of every record's sort key (see ``SortName``) that orders as the key
/// does, in a ``RowBlocks`` table of 512 rows a block, two blocks a page (`people_sort_codes`,
/// `animals_sort_codes`, migration 12): ordering a big group of equal scores reads a code from
/// a block for each row instead of a b-tree seek into the records, and reads the whole keys of
/// only the few rows the codes cannot place (see ``SortCodeTable``). A code is the key's first
/// three folded bytes, or, once the database has a ``SortCodeMap`` (many records, migration
/// 15), where the key falls among boundaries sampled from the records: one map for every
/// kind, since a ranking compares the codes of people with those of animals.
///
/// A code orders as its key does: when one row's code is below another's, its key sorts first
/// (``SortCodeMap/code(ofFolded:)``); equal codes tell nothing. A record's code is never zero:
/// zero marks an id with no record (never used, deleted, or moved away), so the table also
/// tells which records exist, and listing everything in name order reads it alone (see
/// ``everyRecord(in:)``; migration 13, which dropped the sort-name indexes). A code is not a
/// rank, so a write changes only its own row's. Triggers of their own (beside the index
/// triggers) write the code of each row inserted or renamed, with the `ftsearch_sort_code`
/// SQL function and the map, and zero the code of a row deleted or moved to another id;
/// imports, which drop them, write the codes of the records they store (``Pending``), and may
/// make the map and every code again (``rebuildAll(in:mapMinimum:)``); `check` compares every
/// record's code with its key and counts the codes against the records, and `rebuild` makes
/// the map and the table again.
package struct SortCodes {
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

    /// The code `map` gives `record`'s sort name: its ``SortName/columns(of:)`` joined by a
    /// space, as the key joins them.
    static func code(ofSortNameOf record: Record, in map: SortCodeMap) -> UInt32 {
        map.code { key in
            for column in sortColumns[record.kind, default: []] {
                var value = record.searchableValues[column]
                value.withUTF8 { key.append(column: $0) }
            }
        }
    }

    /// Where each kind's sort name columns are among its searchable values.
    private static let sortColumns = Dictionary(
        uniqueKeysWithValues: Kind.allCases.map { kind in
            (
                kind,
                SortName.columns(of: kind).compactMap { kind.searchableFields.firstIndex(of: $0) }
            )
        })

    /// The name of the SQL function the triggers call: `ftsearch_sort_code(key, map)`, the code
    /// of a text as ``length`` bytes (see ``bytes(of:)``) by the ``SortCodeMap`` of id `map`
    /// (the empty map when NULL); `ftsearch_sort_code(key)`, as migrations 12 and 13 call it,
    /// by the empty map.
    static let functionName = "ftsearch_sort_code"

    /// The code of a sort name that is not text (an animal's name another program wrote as a
    /// blob), which SQLite sorts after every text: the highest, which only a text coded
    /// 0xFFFFFF shares (equal codes tell nothing).
    static let ofNonText: UInt32 = 0xFF_FFFF

    /// Registers ``functionName`` on `database`, with one argument and with two
    /// (deterministic, since a map's id names one map, and innocuous, so that triggers may
    /// call it). With two, it reads the map of that id from `sort_code_map` on the
    /// connection it runs on, once until the id changes; a map that is not there or cannot
    /// be read is an `SQLITE_CORRUPT` error.
    ///
    /// Migrations 12 and 13 fill the codes with the one-argument form, so a change to what it
    /// gives is a change those migrations ship only with a later migration that fills the
    /// codes again, as 13 did when an empty name's code became 1 and a blob's ``ofNonText``.
    static func registerFunction(on database: Database) throws(SQLiteError) {
        let kept = KeptMap()
        for arguments: Int32 in [1, 2] {
            try database.createFunction(
                functionName, argumentCount: arguments, isInnocuous: true
            ) { [unowned database] arguments throws(SQLiteError) in
                var map = SortCodeMap.empty
                if arguments.count == 2, !arguments.isNull(at: 1) {
                    map = try kept.map(arguments.int64(at: 1), on: database)
                }
                guard !arguments.isBlob(at: 0) else { return SortCodes.bytes(of: ofNonText) }
                return arguments.withText(at: 0) { SortCodes.bytes(of: map.code(ofKey: $0)) }
            }
        }
    }

    /// The map a connection's ``functionName`` read last.
    private final class KeptMap {
        private var map = SortCodeMap.empty

        /// The map of id `id`, read from `sort_code_map` on `database` when it is not the one
        /// kept.
        ///
        /// - Throws: An `SQLITE_CORRUPT` error when it is not there or cannot be read.
        func map(_ id: Int64, on database: Database) throws(SQLiteError) -> SortCodeMap {
            if map.id == id { return map }
            let row = try? database.cachedStatement(
                sql: "SELECT records, boundaries FROM sort_code_map WHERE id = ?1"
            ).firstRow([id]) { ($0.int(at: 0), $0.bytes(at: 1)) }
            guard let (records, encoded) = row ?? nil,
                let found = SortCodeMap(id: id, records: records, encoded: encoded),
                found.id == id
            else {
                throw SQLiteError(.corrupt, message: SortCodeMap.damagedMessage)
            }
            map = found
            return found
        }
    }

    /// The triggers writing the code of each record inserted or renamed, and zeroing the code
    /// of each record deleted or moved to another id (as migrations 12, 13 and 15 created them;
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
                \(update("new", to: "\(Self.functionName)(\(SortName.sql(of: kind, table: "new")), \(mapIDSQL))"));
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

    /// The id of the map, or NULL.
    private var mapIDSQL: String { "(SELECT id FROM sort_code_map)" }

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

    /// The database's map, ``SortCodeMap/empty`` when it has none.
    ///
    /// - Throws: An `SQLITE_CORRUPT` ``SQLiteError`` when the map stored cannot be read.
    package static func storedMap(in database: Database) throws -> SortCodeMap {
        let row = try database.cachedStatement(
            sql: "SELECT id, records, boundaries FROM sort_code_map"
        ).firstRow { ($0.int64(at: 0), $0.int(at: 1), $0.bytes(at: 2)) }
        guard let (id, records, encoded) = row else { return .empty }
        guard let map = SortCodeMap(id: id, records: records, encoded: encoded), map.id == id else {
            throw SQLiteError(.corrupt, message: SortCodeMap.damagedMessage)
        }
        return map
    }

    /// Makes the map (when the records of every kind are `mapMinimum` or more) and every
    /// kind's codes again from the records, in two passes over them: one samples their keys
    /// (memory stays flat however many there are), the other codes them.
    static func rebuildAll(in database: Database, mapMinimum: Int = SortCodeMap.minimumRecords)
        throws
    {
        let kinds = Kind.allCases.map(SortCodes.init(of:))
        var sample = SortCodeMap.KeySample()
        for codes in kinds {
            try codes.forEachFoldedKey(in: database) { _, key, isText in
                sample.append(folded: isText ? key : UnsafeBufferPointer(start: nil, count: 0))
            }
        }
        let map =
            sample.records >= mapMinimum
            ? SortCodeMap(sampling: sample, id: .random(in: 1...Int64.max)) : .empty
        try database.execute(sql: "DELETE FROM sort_code_map")
        if !map.isEmpty {
            try database.execute(
                sql: "INSERT INTO sort_code_map(id, records, boundaries) VALUES (?1, ?2, ?3)",
                arguments: [map.id, map.records, map.encoded])
        }
        for codes in kinds {
            try database.execute(sql: codes.blocks.deleteAllSQL)
            var pending = Pending(blocks: codes.blocks)
            try codes.forEachFoldedKey(in: database) { id, key, isText in
                pending.set(isText ? map.code(ofFolded: key) : ofNonText, ofRow: id)
            }
            try pending.write(in: database)
            // Connections keep code blocks until the kind's word index changes, and an import
            // changes only its own kinds' indexes.
            try IndexStructure.renew(ofIndexNamed: codes.blocks.versionedBy, in: database)
        }
    }

    /// After an import wrote its records' codes, made with `used`: makes the map and every
    /// code again when the import brought `mapMinimum` records or more and three times the
    /// records of the map (every record's, when it replaced them all), or when the map is not
    /// `used` (another process made it again after the import read it).
    package static func finishImport(
        inserted: Int, replacingAll: Bool, codedWith used: SortCodeMap, mapMinimum: Int,
        in database: Database
    ) throws {
        let map = try storedMap(in: database)
        let mapRecords = replacingAll ? 0 : map.records
        if map.id != used.id || inserted >= max(mapMinimum, 3 * mapRecords) {
            try rebuildAll(in: database, mapMinimum: mapMinimum)
        }
    }

    /// Whether every record's code is the one its sort key gives, and no id without a record
    /// has a code.
    func isConsistent(in database: Database) throws -> Bool {
        try database.readingOneVersion {
            guard let map = try? Self.storedMap(in: database) else { return false }
            let reader = RowBlockReader(database: database, blocks: blocks, keepsBlocks: false)
            defer { reader.close() }
            var isConsistent = true
            var records = 0
            try forEachFoldedKey(in: database) { id, key, isText in
                let code = isText ? map.code(ofFolded: key) : Self.ofNonText
                if reader.code(ofRow: id) != code { isConsistent = false }
                records += 1
            }
            return try isConsistent && everyRecord(in: database).count == records
        }
    }

    /// Calls `body` with every record's id and the first ``SortCodeMap/keyLength`` folded
    /// bytes of its sort key (see ``SortCodeMap/FoldedKey``), and whether the key is text, in
    /// id order. The columns are read apart and joined here: SQLite's `||` makes a new text a
    /// row. A key of columns joined is text, as `||` makes it, whatever they hold.
    private func forEachFoldedKey(
        in database: Database,
        _ body: (_ id: Int64, _ key: UnsafeBufferPointer<UInt8>, _ isText: Bool) throws -> Void
    ) throws {
        let columns = SortName.columns(of: kind)
        var buffer = [UInt8](repeating: 0, count: SortCodeMap.keyLength)
        try database.makeStatement(
            sql: "SELECT id, \(columns.joined(separator: ", ")) FROM \(kind.tableName) ORDER BY id"
        ).forEachRow { row in
            let isText = columns.count > 1 || !row.isBlob(at: 1)
            try buffer.withUnsafeMutableBufferPointer { buffer in
                var key = SortCodeMap.FoldedKey(in: buffer)
                for column in columns.indices {
                    row.withBytes(at: Int32(column + 1)) { key.append(column: $0) }
                }
                try body(row.int64(at: 0), key.bytes, isText)
            }
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
