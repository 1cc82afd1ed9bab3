/// Reads tab-separated values whose first line names the fields.
///
/// ```swift
/// var reader = TSVReader(source: try InputFile(path: "animals.tsv"))
/// while let record = try reader.nextRecord() { print(record.line, record.fields) }
/// ```
///
/// There is no quoting: fields are split on tabs and records on LF or CRLF. Inside a value the
/// escapes `\t`, `\n`, `\r` and `\\` stand for a tab, a line feed, a carriage return and a
/// backslash; any other backslash (`\x`) is kept as written. A UTF-8 byte order mark at the start
/// is ignored and blank lines are skipped. Every field is a `.string`, named by the header.
///
/// Errors name the physical line of the bad record (the header is line 1): a row with the wrong
/// number of fields and invalid UTF-8 are recoverable (the next call reads the next row); an
/// empty or duplicate field name and a read failure are not.
///
/// See the [IANA text/tab-separated-values](https://www.iana.org/assignments/media-types/text/tab-separated-values)
/// registration.
package struct TSVReader: RecordReader {
    private var reader: DelimitedTextReader<TSVDialect>

    /// Creates a reader of the TSV text in `source`; nothing is read until the first record is
    /// asked for.
    package init(source: any ByteSource) {
        reader = DelimitedTextReader(source: source)
    }

    /// A reader with a read buffer of `bufferCapacity` bytes (small ones test buffer boundaries).
    init(source: any ByteSource, bufferCapacity: Int) {
        reader = DelimitedTextReader(source: source, bufferCapacity: bufferCapacity)
    }

    /// The names from the header line, once the first record has been asked for; `nil` before,
    /// and for an empty input.
    package var fieldNames: [String]? { reader.fieldNames }

    /// How many bytes of the input have been read so far.
    package var bytesConsumed: Int64 { reader.bytesConsumed }

    /// Reads the next line as a record of `.string` fields named by the header.
    ///
    /// - Returns: The next record, or `nil` at the end of the input.
    /// - Throws: ``RecordSyntaxError`` for a malformed line or header.
    package mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord? {
        try reader.nextRecord()
    }
}
