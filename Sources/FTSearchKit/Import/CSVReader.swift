/// Reads comma-separated values (RFC 4180) whose first row names the fields.
///
/// ```swift
/// var reader = CSVReader(source: try InputFile(path: "people.csv"))
/// while let record = try reader.nextRecord() {
///     print(record.line, record.fields)
/// }
/// ```
///
/// Quoted fields may hold commas, doubled quotes and line breaks; a quote inside a field that
/// does not start with one is ordinary text (`5'11"`); lines end with LF, CRLF or a lone CR; a
/// UTF-8 byte order mark at the start is ignored; blank lines are skipped. Every field is a
/// `.string`, named by the header.
///
/// Errors name the physical line on which the bad record starts (the header is line 1), and the
/// column when the problem is on that line:
/// - recoverable (the next call reads the next row): a row with the wrong number of fields,
///   invalid UTF-8, text after a closing quote;
/// - not recoverable (every later call throws the same error): a quoted field still open at the
///   end of the input, an empty or duplicate field name, a malformed header, a read failure.
///
/// See [RFC 4180](https://www.rfc-editor.org/rfc/rfc4180).
package struct CSVReader: RecordReader {
    private var reader: DelimitedTextReader<CSVDialect>

    /// Creates a reader of the CSV text in `source`; nothing is read until the first record is
    /// asked for.
    package init(source: any ByteSource) {
        reader = DelimitedTextReader(source: source)
    }

    /// A reader with a read buffer of `bufferCapacity` bytes (small ones test buffer boundaries).
    init(source: any ByteSource, bufferCapacity: Int) {
        reader = DelimitedTextReader(source: source, bufferCapacity: bufferCapacity)
    }

    /// The names from the header row, once the first record has been asked for; `nil` before,
    /// and for an empty input.
    package var fieldNames: [String]? { reader.fieldNames }

    /// How many bytes of the input have been read so far.
    package var bytesConsumed: Int64 { reader.bytesConsumed }

    /// Reads the next row as a record of `.string` fields named by the header.
    ///
    /// - Returns: The next record, or `nil` at the end of the input.
    /// - Throws: ``RecordSyntaxError`` for a malformed row or header.
    package mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord? {
        try reader.nextRecord()
    }
}
