package import FTSearchSQLite

/// Something in an FTS5 index's records that FTS5 never writes: a read past a record's end, a
/// rowid out of order, a column out of range. The reader then gives the search back to FTS5.
public struct FTS5FormatError: Error, Equatable {
    /// What was wrong, for the log: "rowid order", "offset varint".
    public let reason: String

    /// An error saying `reason`.
    public init(reason: String) { self.reason = reason }
}

/// The byte-level codecs of FTS5's records (fts5_index.c): SQLite varints and big-endian
/// 16-bit fields, every read checked against the record's end.
public enum FTS5Format {
    /// The SQLite varint at `offset` (sqlite3Fts5GetVarint): 7 bits a byte, most significant
    /// group first, the high bit set on every byte but the last; a ninth byte gives 8 bits.
    @inlinable @inline(__always)
    public static func varint(
        in bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int, end: Int
    ) throws(FTS5FormatError) -> UInt64 {
        var value: UInt64 = 0
        for length in 0..<9 {
            guard offset < end else { throw FTS5FormatError(reason: "varint past the end") }
            let byte = bytes[offset]
            offset += 1
            if length == 8 { return value << 8 | UInt64(byte) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        return value
    }

    /// A varint that must fit an `Int` of at most `limit`.
    @inlinable @inline(__always)
    public static func count(
        in bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int, end: Int, limit: Int
    ) throws(FTS5FormatError) -> Int {
        let value = try varint(in: bytes, at: &offset, end: end)
        guard value <= UInt64(limit) else { throw FTS5FormatError(reason: "count out of range") }
        return Int(value)
    }

    /// The big-endian 16-bit field at `offset`.
    package static func uint16(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int)
        throws(FTS5FormatError)
        -> Int
    {
        guard offset + 2 <= bytes.count else { throw FTS5FormatError(reason: "short header") }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }
}

/// One segment of an FTS5 index, as its structure record lists it.
public struct FTS5Segment: Equatable {
    /// The segment's id (its rowids' high bits in `%_data`).
    public let id: Int
    /// Its first leaf page (0 when it has none).
    public let firstPage: Int
    /// Its last leaf page.
    public let lastPage: Int

    /// The `%_data` rowid of leaf `page` (FTS5_SEGMENT_ROWID).
    public func rowid(ofPage page: Int) -> Int64 { Int64(id) << 37 + Int64(page) }
}

/// What an FTS5 index's `%_data` says about the whole index: its segments, newest first, and
/// the averages bm25 reads.
package struct FTS5Structure {
    /// Newest first: lower levels before higher ones, and within a level the later segment
    /// first, the order in which FTS5 lets a newer entry for a rowid hide older ones.
    package let segments: [FTS5Segment]
    /// The number of rows and of tokens in all columns (the averages record).
    package let rowCount: Int64
    package let tokenCount: Int64

    /// The structure record (id 10) and averages record (id 1), read in the legacy format
    /// FTS5 3.40 writes; a V2 record (`contentless_delete=1`) is not this reader's.
    package init(structure: [UInt8], averages: [UInt8], columnCount: Int) throws(FTS5FormatError) {
        var segments: [FTS5Segment] = []
        try structure.withUnsafeBufferPointer { (bytes) throws(FTS5FormatError) in
            guard bytes.count >= 5, bytes[4] != 0xFF else {
                throw FTS5FormatError(reason: "not a legacy structure record")
            }
            var offset = 4
            let end = bytes.count
            let levelCount = try FTS5Format.count(in: bytes, at: &offset, end: end, limit: 64)
            let segmentCount = try FTS5Format.count(in: bytes, at: &offset, end: end, limit: 65535)
            _ = try FTS5Format.varint(in: bytes, at: &offset, end: end)  // the write counter
            var levels: [[FTS5Segment]] = []
            for _ in 0..<levelCount {
                _ = try FTS5Format.varint(in: bytes, at: &offset, end: end)  // merging inputs
                let count = try FTS5Format.count(in: bytes, at: &offset, end: end, limit: 65535)
                var level: [FTS5Segment] = []
                for _ in 0..<count {
                    let id = try FTS5Format.count(in: bytes, at: &offset, end: end, limit: 65535)
                    let first = try FTS5Format.count(
                        in: bytes, at: &offset, end: end, limit: Int(Int32.max))
                    let last = try FTS5Format.count(
                        in: bytes, at: &offset, end: end, limit: Int(Int32.max))
                    guard id > 0 else { throw FTS5FormatError(reason: "segment id 0") }
                    level.append(FTS5Segment(id: id, firstPage: first, lastPage: last))
                }
                levels.append(level)
            }
            segments = levels.flatMap { $0.reversed() }
            guard segments.count == segmentCount else {
                throw FTS5FormatError(reason: "segment count")
            }
        }
        self.segments = segments
        let counts = try FTS5Averages(record: averages, columnCount: columnCount)
        rowCount = counts.rowCount
        tokenCount = counts.tokenCount
    }
}

/// An index's averages record (id 1 of `%_data`): its row count, and its token count in all
/// columns, from which bm25 takes the average row size.
package struct FTS5Averages {
    package let rowCount: Int64
    package let tokenCount: Int64

    /// The counts of an index of `columnCount` columns; throws when the record does not
    /// decode or counts no row.
    package init(record averages: [UInt8], columnCount: Int) throws(FTS5FormatError) {
        var rows: Int64 = 0
        var tokens: Int64 = 0
        try averages.withUnsafeBufferPointer { (bytes) throws(FTS5FormatError) in
            var offset = 0
            rows = Int64(
                try FTS5Format.count(
                    in: bytes, at: &offset, end: bytes.count, limit: Int(Int64.max)))
            for _ in 0..<columnCount {
                let (sum, overflow) = tokens.addingReportingOverflow(
                    Int64(
                        try FTS5Format.count(
                            in: bytes, at: &offset, end: bytes.count, limit: Int(Int64.max))))
                guard !overflow else { throw FTS5FormatError(reason: "token count") }
                tokens = sum
            }
        }
        guard rows > 0 else { throw FTS5FormatError(reason: "no rows") }
        rowCount = rows
        tokenCount = tokens
    }

    /// The counts of `index` as they are now; nil when it has no row or its record does not
    /// decode.
    package init?(of index: String, columnCount: Int, in database: Database) {
        let reader = FTS5DataReader(database: database, index: index)
        defer { reader.close() }
        var bytes: [UInt8] = []
        guard (try? reader.read(1, into: &bytes)) != nil,
            let counts = try? FTS5Averages(record: bytes, columnCount: columnCount)
        else { return nil }
        self = counts
    }
}
