/// A streaming reader that turns the bytes of one input file into records, one at a time.
///
/// Readers never hold more than the record being read (plus a fixed-size read buffer), so files
/// much larger than memory can be imported. ``InputFormat/makeReader(for:format:path:)`` makes
/// the reader of a format; a type of your own can stand in front of one (to check or change
/// each record as it passes) or produce records from anything else, and be imported with
/// `ImportSource(name:reader:)`:
///
/// ```swift
/// struct OnlyWithEmail: RecordReader {
///     var base: any RecordReader
///     var bytesConsumed: Int64 { base.bytesConsumed }
///
///     mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord? {
///         while let record = try base.nextRecord() {
///             if record.fields.contains(where: { $0.key == "email" }) { return record }
///         }
///         return nil
///     }
/// }
/// ```
public protocol RecordReader {
    /// Reads the next record.
    ///
    /// - Returns: The next record, or `nil` at the end of the input.
    /// - Throws: ``RecordSyntaxError`` when the input is malformed. When the error's
    ///   `isRecoverable` is true, the next call resumes with the record after the bad one.
    mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord?

    /// How many bytes of the input have been consumed so far (for progress reports).
    var bytesConsumed: Int64 { get }
}

/// Malformed input, located in the file it came from.
public struct RecordSyntaxError: Error, Equatable, Sendable {
    /// The 1-based physical line of the problem.
    public var line: Int
    /// The 1-based column (in bytes) of the problem, where it helps.
    public var column: Int?
    /// What is wrong, as a short lowercase phrase: `unterminated string`.
    public var reason: String
    /// Whether the reader can go on with the next record (a bad CSV row, a bad NDJSON line),
    /// or the rest of the input cannot be trusted (a broken JSON array).
    public var isRecoverable: Bool
    /// The failure of the input itself (a read error), when that, not the data, stopped the
    /// reader; such errors are never recoverable.
    public var inputError: InputError?

    /// Creates an error located at `line` (and `column`).
    public init(
        line: Int, column: Int? = nil, reason: String, isRecoverable: Bool,
        inputError: InputError? = nil
    ) {
        self.line = line
        self.column = column
        self.reason = reason
        self.isRecoverable = isRecoverable
        self.inputError = inputError
    }
}

extension RecordSyntaxError {
    /// The error a reader throws when its input fails while it is at `line`.
    public init(readingFailure failure: InputError, line: Int) {
        self.init(
            line: line, reason: "cannot read the input: \(failure.reason)", isRecoverable: false,
            inputError: failure)
    }
}
