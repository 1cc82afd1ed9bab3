import FTSearchFormats
/// Records as the rows ``BulkWriter`` stores them: every text of every record (its searchable
/// values, then its extra fields as JSON) in one byte buffer, and a few numbers per record.
///
/// An import's reading thread encodes its batches (``RecordReadAhead``) and the writing
/// thread binds their rows from the buffer, so a batch moves between the threads as four
/// allocations rather than several a record: the writing thread releasing and reading records
/// made on the other core took longer than encoding them (10,000 people: 22.7 ms of writing
/// with records handed over, 15.3 ms with records made on the writing thread).
package struct EncodedRecords: Sendable {
    /// One record's numbers.
    package struct Row: Sendable {
        package var kind: Kind
        var id: Int64?
        /// The record's own timestamps, as stored (``StoredTime``); nil for the write's time.
        var createdAt: Int64?
        var updatedAt: Int64?
        /// The code of its sort name (``SortCodes``), when it was encoded with a map; else 0.
        var sortCode: UInt32
        /// Its first text's place among ``EncodedRecords``' texts.
        fileprivate var firstText: Int
    }

    package private(set) var rows: [Row] = []
    private var bytes: [UInt8] = []
    /// Where each text ends in `bytes`.
    private var textEnds: [Int] = []

    package init() {}

    /// Encodes `record` as the next row, with the code `map` gives its sort name (none when nil:
    /// the store API's writes leave the codes to the triggers).
    package mutating func append(_ record: Record, codedBy map: SortCodeMap?) {
        rows.append(
            Row(
                kind: record.kind, id: record.id,
                createdAt: record.createdAt.map(StoredTime.value(of:)),
                updatedAt: record.updatedAt.map(StoredTime.value(of:)),
                sortCode: map.map { SortCodes.code(ofSortNameOf: record, in: $0) } ?? 0,
                firstText: textEnds.count))
        for value in record.searchableValues {
            var value = value
            value.withUTF8 { bytes.append(contentsOf: $0) }
            textEnds.append(bytes.count)
        }
        JSONValue.writeObject(record.extraFields, to: &bytes)
        textEnds.append(bytes.count)
    }

    /// Calls `body` with the UTF-8 bytes of text `text` of row `row`: its searchable values
    /// (`0..<kind.searchableFields.count`), then its extra fields' JSON.
    func withText<Result>(
        _ text: Int, ofRow row: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let index = rows[row].firstText + text
        let start = index == 0 ? 0 : textEnds[index - 1]
        return try bytes.withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[start..<textEnds[index]]))
        }
    }
}
