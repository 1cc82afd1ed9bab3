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
package typealias TSVReader = DelimitedTextReader<TSVDialect>
