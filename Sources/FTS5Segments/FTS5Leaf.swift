package import FTSearchSQLite

/// Reads the records of an FTS5 index's `%_data` table through one incremental blob handle
/// moved from record to record (https://sqlite.org/c3ref/blob_reopen.html).
public final class FTS5DataReader {
    private let database: Database
    private let blob: BlobReader

    /// A reader of `index`'s `%_data` on `database`.
    package init(database: Database, index: String) {
        self.database = database
        blob = BlobReader(database: database, table: index + "_data", column: "block")
    }

    /// Record `rowid` whole, into `bytes` (its storage reused). Throws when there is no such
    /// record or it cannot be read.
    package func read(_ rowid: Int64, into bytes: inout [UInt8]) throws(FTS5FormatError) {
        let count = try open(rowid)
        bytes = [UInt8](repeating: 0, count: count)
        let failure = bytes.withUnsafeMutableBytes { buffer -> FTS5FormatError? in
            do throws(FTS5FormatError) {
                try read(rowid, count: count, into: buffer.baseAddress)
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
    }

    /// Moves the handle to record `rowid` and returns its size. Throws as well when the
    /// connection's interrupt check (a search's cancellation, see
    /// `Database.interruptingStatements`) says stop: the search then goes back to FTS5, whose
    /// next statement step is interrupted.
    package func open(_ rowid: Int64) throws(FTS5FormatError) -> Int {
        if database.interruptCheck?.shouldInterrupt() == true {
            throw FTS5FormatError(reason: "interrupted")
        }
        guard blob.move(to: rowid) else { throw FTS5FormatError(reason: "no record \(rowid)") }
        return blob.byteCount
    }

    /// Reads the `count` bytes of the record ``open(_:)`` moved to into `destination`.
    package func read(_ rowid: Int64, count: Int, into destination: UnsafeMutableRawPointer?)
        throws(FTS5FormatError)
    {
        guard count > 0 else { return }
        guard blob.read(into: UnsafeMutableRawBufferPointer(start: destination, count: count))
        else {
            throw FTS5FormatError(reason: "unreadable \(rowid)")
        }
    }

    /// Closes the blob handle; the next read opens another.
    package func close() {
        blob.close()
    }
}

/// One leaf page of a segment (fts5_index.c, "PAGE FORMAT"): a 4-byte header (the offset of
/// the first rowid when it comes before the first term, and the offset of the footer), the
/// terms and doclists, and a footer of the terms' offsets. Its bytes are in storage of its
/// own, reused from page to page; every read of them is checked against these offsets.
public final class FTS5Leaf {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity = 4096
    private var count = 0
    // Stored properties other modules read (the engine reads them between decodes) are
    // `@exclusivity(unchecked)`: package-visible class properties would otherwise pay a
    // runtime exclusivity check on every access, in the decoding loops too.
    /// The offset of the page's first rowid when it precedes its first term, else 0: there a
    /// doclist begun on an earlier page goes on, with an absolute rowid.
    @exclusivity(unchecked) public private(set) var firstRowidOffset = 0
    /// Where the terms and doclists end and the footer begins.
    @exclusivity(unchecked) public private(set) var footerOffset = 0
    /// The offset of each term on the page, in order.
    @exclusivity(unchecked) public private(set) var termOffsets: [Int] = []

    package init() { storage = .allocate(capacity: capacity) }

    deinit { storage.deallocate() }

    /// The page's bytes, valid until the next ``load(page:of:from:)``.
    public var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage, count: count)
    }

    /// Where the doclist bytes of this page end when a doclist goes on here from the page
    /// before: at its first rowid, its first term, or the footer.
    public var continuationEnd: Int {
        firstRowidOffset != 0 ? firstRowidOffset : termOffsets.first ?? footerOffset
    }

    /// Reads page `page` of `segment` and checks its header and footer.
    public func load(page: Int, of segment: FTS5Segment, from reader: FTS5DataReader)
        throws(FTS5FormatError)
    {
        guard page >= segment.firstPage, page <= segment.lastPage else {
            throw FTS5FormatError(reason: "page outside its segment")
        }
        let rowid = segment.rowid(ofPage: page)
        let size = try reader.open(rowid)
        if size > capacity {
            storage.deallocate()
            capacity = max(size, 2 * capacity)
            storage = .allocate(capacity: capacity)
        }
        count = 0
        try reader.read(rowid, count: size, into: storage)
        count = size
        // Built in a local array: appending to the property would check it for exclusive
        // access at run time, once a term.
        var offsets: [Int] = []
        swap(&offsets, &termOffsets)
        offsets.removeAll(keepingCapacity: true)
        defer { termOffsets = offsets }
        let bytes = self.bytes
        let firstRowidOffset = try FTS5Format.uint16(in: bytes, at: 0)
        let footerOffset = try FTS5Format.uint16(in: bytes, at: 2)
        (self.firstRowidOffset, self.footerOffset) = (firstRowidOffset, footerOffset)
        guard footerOffset >= 4, footerOffset <= bytes.count,
            firstRowidOffset == 0 || (4..<footerOffset).contains(firstRowidOffset)
        else { throw FTS5FormatError(reason: "leaf header") }
        var offset = footerOffset
        var term = 0
        while offset < bytes.count {
            term += try FTS5Format.count(
                in: bytes, at: &offset, end: bytes.count, limit: footerOffset)
            let previous = offsets.last ?? 0
            guard (4..<footerOffset).contains(term), term > previous,
                firstRowidOffset == 0 || firstRowidOffset < term
            else { throw FTS5FormatError(reason: "leaf footer") }
            offsets.append(term)
        }
    }

    /// Makes this leaf a copy of `other`'s page, checked already: the page a term was found
    /// on is where its doclist starts, and copying it costs less than reading it again.
    public func copy(_ other: FTS5Leaf) {
        if other.count > capacity {
            storage.deallocate()
            capacity = max(other.count, 2 * capacity)
            storage = .allocate(capacity: capacity)
        }
        storage.update(from: other.storage, count: other.count)
        count = other.count
        firstRowidOffset = other.firstRowidOffset
        footerOffset = other.footerOffset
        termOffsets = other.termOffsets
    }
}
