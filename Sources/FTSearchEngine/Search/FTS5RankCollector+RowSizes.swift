import FTS5Segments
import FTSearchSQLite

/// The collector's reading of a row's size: the index's row-size blocks (``RowSizes``), else
/// FTS5's `%_docsize`.
extension FTS5RankCollector {
    /// Reads row `rowid`'s token count: from the index's ``RowSizes`` byte, else from its
    /// docsize table (see ``readDocsize(ofRow:into:)``). Returns false when neither answers.
    @inline(__always)
    func readSize(ofRow rowid: Int64, into size: inout Int32) -> Bool {
        if let byte = rowSizeReader?.byte(ofRow: rowid), byte != RowSizes.unknown {
            size = Int32(byte)
            return true
        }
        return readDocsize(ofRow: rowid, into: &size)
    }

    /// Reads the row's token count from the index's docsize table through an incremental
    /// blob handle (https://sqlite.org/c3ref/blob_reopen.html): moving the handle to the next
    /// row is a b-tree seek, several times cheaper than `xColumnSize`, which runs a statement
    /// per row. The blob holds each column's count as a varint, and xColumnSize(-1) is their
    /// sum. Returns false when the blob cannot be read; the caller then asks FTS5.
    func readDocsize(ofRow rowid: Int64, into size: inout Int32) -> Bool {
        guard let blob = sizeBlob else { return false }
        guard blob.move(to: rowid) else {
            // A table without the row, or without the column: FTS5 answers from now on.
            if !blob.isOpen { sizeBlob = nil }
            return false
        }
        let count = blob.byteCount
        guard count > 0, count <= 64 else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { bytes -> Bool in
            guard blob.read(into: UnsafeMutableRawBufferPointer(bytes)) else { return false }
            var total: UInt32 = 0
            var offset = 0
            while offset < count {
                // Each column's count, a 32-bit SQLite varint, decoded as the doclist reader
                // decodes FTS5's records.
                guard
                    let value = try? FTS5Format.count(
                        in: UnsafeBufferPointer(bytes), at: &offset, end: count,
                        limit: Int(UInt32.max))
                else { return false }
                total &+= UInt32(value)
            }
            size = Int32(truncatingIfNeeded: total)
            return true
        }
    }

    /// Closes the blob handle; called when the query is done.
    func closeSizeReader() {
        rowSizeReader?.close()
        sizeBlob?.close()
    }
}
