import CSQLite
import FTSearchSQLite

/// Reads the records of an FTS5 index's `%_data` table through one incremental blob handle
/// moved from record to record (https://sqlite.org/c3ref/blob_reopen.html).
final class FTS5DataReader {
    private let database: Database
    private let table: String
    private var blob: OpaquePointer?

    /// A reader of `index`'s `%_data` on `database`.
    init(database: Database, index: String) {
        self.database = database
        table = index + "_data"
    }

    deinit { close() }

    /// Record `rowid` whole, into `bytes` (its storage reused). Throws when there is no such
    /// record or it cannot be read.
    func read(_ rowid: Int64, into bytes: inout [UInt8]) throws(FTS5FormatError) {
        if let blob {
            guard sqlite3_blob_reopen(blob, rowid) == SQLITE_OK else {
                close()
                throw FTS5FormatError(reason: "no record \(rowid)")
            }
        } else {
            guard
                sqlite3_blob_open(database.handle, "main", table, "block", rowid, 0, &blob)
                    == SQLITE_OK, blob != nil
            else {
                close()
                throw FTS5FormatError(reason: "no record \(rowid)")
            }
        }
        guard let blob else { throw FTS5FormatError(reason: "no record \(rowid)") }
        let count = Int(sqlite3_blob_bytes(blob))
        bytes.removeAll(keepingCapacity: true)
        guard count > 0 else { return }
        bytes.append(contentsOf: repeatElement(0, count: count))
        let code = bytes.withUnsafeMutableBufferPointer { buffer in
            sqlite3_blob_read(blob, buffer.baseAddress, Int32(count), 0)
        }
        guard code == SQLITE_OK else { throw FTS5FormatError(reason: "unreadable \(rowid)") }
    }

    /// Closes the blob handle; the next read opens another.
    func close() {
        if let blob { sqlite3_blob_close(blob) }
        blob = nil
    }
}

/// One leaf page of a segment (fts5_index.c, "PAGE FORMAT"): a 4-byte header (the offset of
/// the first rowid when it comes before the first term, and the offset of the footer), the
/// terms and doclists, and a footer of the terms' offsets.
struct FTS5Leaf {
    private(set) var bytes: [UInt8] = []
    /// The offset of the page's first rowid when it precedes its first term, else 0: there a
    /// doclist begun on an earlier page goes on, with an absolute rowid.
    private(set) var firstRowidOffset = 0
    /// Where the terms and doclists end and the footer begins.
    private(set) var footerOffset = 0
    /// The offset of each term on the page, in order.
    private(set) var termOffsets: [Int] = []

    /// Reads page `page` of `segment` and checks its header and footer.
    mutating func load(page: Int, of segment: FTS5Segment, from reader: FTS5DataReader)
        throws(FTS5FormatError)
    {
        guard page >= segment.firstPage, page <= segment.lastPage else {
            throw FTS5FormatError(reason: "page outside its segment")
        }
        try reader.read(segment.rowid(ofPage: page), into: &bytes)
        termOffsets.removeAll(keepingCapacity: true)
        try bytes.withUnsafeBufferPointer { (bytes) throws(FTS5FormatError) in
            firstRowidOffset = try FTS5Format.uint16(in: bytes, at: 0)
            footerOffset = try FTS5Format.uint16(in: bytes, at: 2)
            guard footerOffset >= 4, footerOffset <= bytes.count,
                firstRowidOffset == 0 || (4..<footerOffset).contains(firstRowidOffset)
            else { throw FTS5FormatError(reason: "leaf header") }
            var offset = footerOffset
            var term = 0
            while offset < bytes.count {
                term += try FTS5Format.count(
                    in: bytes, at: &offset, end: bytes.count, limit: footerOffset)
                let previous = termOffsets.last ?? 0
                guard (4..<footerOffset).contains(term), term > previous,
                    firstRowidOffset == 0 || firstRowidOffset < term
                else { throw FTS5FormatError(reason: "leaf footer") }
                termOffsets.append(term)
            }
        }
    }
}
