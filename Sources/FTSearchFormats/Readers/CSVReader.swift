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
package typealias CSVReader = DelimitedTextReader<CSVDialect>
