package import FTSearchSQLite

/// Where a doclist's entries are decoded to: each entry's rowid, then its position list.
public protocol DoclistSink: AnyObject {
    /// Starts an entry for `rowid`; returns what ``takePositions(in:from:to:entry:columnCount:countedColumns:)`` is given for it.
    func append(_ rowid: Int64) -> Int
    /// Takes the position list `bytes[start..<end]` (fts5_index.c, "poslist format") of the
    /// entry `entry`, in an index of `columnCount` columns of which those with their bit set
    /// in `countedColumns` are searched.
    func takePositions(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, entry: Int,
        columnCount: Int, countedColumns: UInt64
    ) throws(FTS5FormatError)
}

/// Finds terms in an FTS5 index's segments and decodes their doclists (fts5_index.c,
/// "TERM/DOCLIST FORMAT") into a ``DoclistSink``: hits counted per column
/// (``DoclistEntries``), or positions kept (``PhrasePositions``).
public final class FTS5SegmentReader {
    private let database: Database
    private let index: String
    @usableFromInline let data: FTS5DataReader
    /// The number of columns of the index.
    public let columnCount: Int
    /// Bit `c` set when hits in column `c` are counted (the search's column filter).
    public let countedColumns: UInt64
    @usableFromInline let termLeaf = FTS5Leaf()
    @usableFromInline let doclistLeaf = FTS5Leaf()
    @usableFromInline @exclusivity(unchecked) var spanning: [UInt8] = []
    /// The `%_idx` query of the leaf to start a term's search at, once per phrase and
    /// segment: prepared once a reader, not looked up by its SQL every time.
    private var startingLeafStatement: Statement?

    package init(database: Database, index: String, columnCount: Int, matchedColumns: [Int]?) {
        self.database = database
        self.index = index
        data = FTS5DataReader(database: database, index: index)
        self.columnCount = columnCount
        precondition(columnCount <= 64)
        countedColumns = (0..<columnCount).reduce(0) { bits, column in
            matchedColumns?.contains(column) ?? true ? bits | 1 << column : bits
        }
    }

    /// Closes the blob handle.
    package func close() { data.close() }

    /// The record `rowid` of `%_data` (the structure and averages records).
    package func record(_ rowid: Int64) throws(FTS5FormatError) -> [UInt8] {
        var bytes: [UInt8] = []
        try data.read(rowid, into: &bytes)
        return bytes
    }

    /// Appends to `entries` the doclist in `segment` of the term `key` (its index byte
    /// first), if it has one.
    /// Inlinable, so that the engine's sink is specialized into the decoding loop.
    @inlinable
    public func appendDoclist<Sink: DoclistSink>(
        of key: [UInt8], in segment: FTS5Segment, to entries: Sink
    ) throws {
        _ = try doclists(of: key, isPrefix: false, in: segment) { entries }
    }

    /// The doclists in `segment` of every term starting with `key`, in term order, the hits of
    /// the `wanted` rows counted (see ``DoclistEntries``; nil: of every row).
    package func termDoclists(startingWith key: [UInt8], in segment: FTS5Segment, wanted: [Int64]?)
        throws -> [(term: [UInt8], entries: DoclistEntries)]
    {
        try doclists(of: key, isPrefix: true, in: segment) {
            DoclistEntries(columnCount: columnCount, capacity: 256, wanted: wanted)
        }
    }

    /// About how many leaf pages the doclist of the term `key` (or of the terms starting with
    /// it) takes in `segment`: from the page it starts on to the page of the first term after
    /// it, as `%_idx` says, without reading a page.
    package func pageSpan(of key: [UInt8], isPrefix: Bool, in segment: FTS5Segment) throws -> Int {
        let first = try startingLeaf(of: key, in: segment) ?? segment.firstPage
        // No term has a 0xFF byte (UTF-8 has none): every term starting with `key` is below.
        let next =
            try leaf(
                in: segment, isPrefix ? key + [0xFF] : key,
                by: database.cachedStatement(sql: leafSQL("term > ?2 ORDER BY term")))
            ?? segment.lastPage + 1
        return max(0, next - first)
    }

    /// The leaf page of the first `%_idx` entry of `segment` that `statement`, a query of
    /// ``leafSQL(_:)``, finds for `key`.
    private func leaf(in segment: FTS5Segment, _ key: [UInt8], by statement: Statement) throws
        -> Int?
    {
        // Bound by type: the boxed arguments cost a fifth of a seek, every phrase and segment.
        try statement.bind(Int64(segment.id), at: 1)
        try statement.bind(blob: key, at: 2)
        return try statement.firstRow { Int(clamping: $0.int64(at: 0) >> 1) }
    }

    /// The query of the leaf page of the first `%_idx` entry of segment `?1` that `condition`
    /// (on `?2`, the key, with its order) finds.
    private func leafSQL(_ condition: String) -> String {
        "SELECT pgno FROM \"\(index)_idx\" WHERE segid = ?1 AND \(condition) LIMIT 1"
    }

    /// The leaf whose first term is the last at or before `key` in `segment`
    /// (fts5SegIterSeekInit), if any.
    @usableFromInline
    func startingLeaf(of key: [UInt8], in segment: FTS5Segment) throws -> Int? {
        let statement =
            try startingLeafStatement
            ?? database.cachedStatement(sql: leafSQL("term <= ?2 ORDER BY term DESC"))
        startingLeafStatement = statement
        return try leaf(in: segment, key, by: statement)
    }

    /// The doclists of `key` or the terms starting with it, each appended to the sink
    /// `sink()` gives for it.
    @inlinable
    func doclists<Sink: DoclistSink>(
        of key: [UInt8], isPrefix: Bool, in segment: FTS5Segment, sink: () -> Sink
    ) throws -> [(term: [UInt8], entries: Sink)] {
        guard segment.firstPage > 0, segment.firstPage <= segment.lastPage else { return [] }
        var page = max(segment.firstPage, try startingLeaf(of: key, in: segment) ?? 0)
        var found: [(term: [UInt8], entries: Sink)] = []
        var term: [UInt8] = []
        while page <= segment.lastPage {
            try termLeaf.load(page: page, of: segment, from: data)
            let offsets = termLeaf.termOffsets
            for (position, start) in offsets.enumerated() {
                var offset = start
                let footer = termLeaf.footerOffset
                let bytes = termLeaf.bytes
                // The first term of a page is whole; each next one shares a prefix with the
                // one before.
                let shared =
                    position == 0
                    ? 0
                    : try FTS5Format.count(in: bytes, at: &offset, end: footer, limit: term.count)
                let added = try FTS5Format.count(
                    in: bytes, at: &offset, end: footer, limit: footer - offset)
                term.removeSubrange(shared...)
                term += bytes[offset..<offset + added]
                offset += added
                if isPrefix ? term.starts(with: key) : term == key {
                    let end = position + 1 < offsets.count ? offsets[position + 1] : footer
                    let entries = sink()
                    try appendDoclist(at: offset, end: end, page: page, of: segment, to: entries)
                    found.append((term, entries))
                    if !isPrefix { return found }
                } else if key.lexicographicallyPrecedes(term) {
                    return found
                }
            }
            page += 1
        }
        return found
    }

    /// Decodes, appending to `entries`, the doclist starting at `offset` of leaf `page` (the
    /// term leaf's) and ending at `end` there (the next term) or, when `end` is the footer,
    /// going on on the next pages of the segment.
    @inlinable
    func appendDoclist<Sink: DoclistSink>(
        at start: Int, end: Int, page: Int, of segment: FTS5Segment, to entries: Sink
    ) throws(FTS5FormatError) {
        doclistLeaf.copy(termLeaf)
        var page = page
        var offset = start
        // The end of the doclist's bytes on this page, and whether a term ends it there.
        var regionEnd = end
        var endsAtTerm = end < doclistLeaf.footerOffset
        // Where on this page an absolute rowid goes on with the doclist (-1: nowhere).
        var absoluteRowidOffset = -1
        var rowid: Int64 = 0
        var isFirst = true
        // The current page's bytes, taken again after each page read (a class's computed
        // property, read once an entry, was a call across modules).
        var bytes = doclistLeaf.bytes
        while true {
            // The entry's rowid: absolute first and at a page's first rowid, else a delta.
            let isAbsolute = isFirst || offset == absoluteRowidOffset
            let value = try FTS5Format.varint(in: bytes, at: &offset, end: regionEnd)
            if isAbsolute {
                let next = Int64(bitPattern: value)
                guard isFirst || next > rowid else { throw FTS5FormatError(reason: "rowid order") }
                rowid = next
            } else {
                let (next, overflow) = rowid.addingReportingOverflow(Int64(bitPattern: value))
                guard value > 0, !overflow else { throw FTS5FormatError(reason: "rowid delta") }
                rowid = next
            }
            isFirst = false
            let hitsStart = entries.append(rowid)
            // The position list: its size (times 2, plus the delete flag), then its bytes.
            let size = Int(try FTS5Format.varint(in: bytes, at: &offset, end: regionEnd) >> 1)
            if size <= regionEnd - offset {
                try entries.takePositions(
                    in: bytes, from: offset, to: offset + size, entry: hitsStart,
                    columnCount: columnCount, countedColumns: countedColumns)
                offset += size
            } else {
                // It goes on at offset 4 of the next pages (fts5ChunkIterate).
                spanning.removeAll(keepingCapacity: true)
                spanning += bytes[offset..<regionEnd]
                var remaining = size - (regionEnd - offset)
                guard !endsAtTerm else { throw FTS5FormatError(reason: "position list") }
                while remaining > 0 {
                    page += 1
                    try doclistLeaf.load(page: page, of: segment, from: data)
                    bytes = doclistLeaf.bytes
                    let stop = doclistLeaf.continuationEnd
                    let taken = min(remaining, stop - 4)
                    guard taken == remaining || stop == doclistLeaf.footerOffset else {
                        throw FTS5FormatError(reason: "position list")
                    }
                    spanning += bytes[4..<4 + taken]
                    remaining -= taken
                    offset = 4 + taken
                }
                try spanning.withUnsafeBufferPointer { (bytes) throws(FTS5FormatError) in
                    try entries.takePositions(
                        in: bytes, from: 0, to: bytes.count, entry: hitsStart,
                        columnCount: columnCount, countedColumns: countedColumns)
                }
                absoluteRowidOffset =
                    doclistLeaf.firstRowidOffset == 0 ? -1 : doclistLeaf.firstRowidOffset
                regionEnd = doclistLeaf.termOffsets.first ?? doclistLeaf.footerOffset
                endsAtTerm = !doclistLeaf.termOffsets.isEmpty
                guard offset == absoluteRowidOffset || offset == regionEnd else {
                    throw FTS5FormatError(reason: "position list end")
                }
            }
            if offset < regionEnd { continue }
            guard offset == regionEnd else { throw FTS5FormatError(reason: "doclist end") }
            if endsAtTerm { return }
            // The page is done: the doclist goes on at the next page's first rowid, ends at
            // its first term, or (a page of one long position list) passes over it.
            while true {
                page += 1
                guard page <= segment.lastPage else { return }
                try doclistLeaf.load(page: page, of: segment, from: data)
                bytes = doclistLeaf.bytes
                if doclistLeaf.firstRowidOffset != 0 {
                    offset = doclistLeaf.firstRowidOffset
                    absoluteRowidOffset = offset
                    regionEnd = doclistLeaf.termOffsets.first ?? doclistLeaf.footerOffset
                    endsAtTerm = !doclistLeaf.termOffsets.isEmpty
                    break
                }
                if !doclistLeaf.termOffsets.isEmpty { return }
            }
        }
    }
}
