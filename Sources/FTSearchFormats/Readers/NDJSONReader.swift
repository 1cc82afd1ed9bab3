/// Reads newline-delimited JSON: one JSON object per line, each a record.
///
/// ```swift
/// var reader = NDJSONReader(source: try InputFile(path: "events.ndjson"))
/// while let record = try reader.nextRecord() { print(record.line, record.fields) }
/// ```
///
/// Lines end with LF (a CR before it is whitespace). Blank and whitespace-only lines are skipped;
/// a UTF-8 byte order mark at the start is ignored. A record's `line` is its line number. Each
/// line must be one RFC 8259 JSON text (see ``JSONParser``).
///
/// A malformed line, or a line holding a value that is not an object, is a recoverable error
/// located at its line and column: the next call goes on with the next line. Only a read failure
/// ends reading.
///
/// See [JSON Lines](https://jsonlines.org) and [NDJSON](https://github.com/ndjson/ndjson-spec).
package struct NDJSONReader: RecordReader {
    private let buffer: ReadBuffer
    private var parser: JSONParser
    /// The number of the line at the start of the buffer's window.
    private var line = 1
    private var hasSkippedByteOrderMark = false
    private var failure: RecordSyntaxError?

    /// Creates a reader of the NDJSON text in `source`; nothing is read until the first record
    /// is asked for.
    package init(source: any ByteSource) {
        self.init(source: source, bufferCapacity: ReadBuffer.defaultCapacity)
    }

    /// A reader with a read buffer of `bufferCapacity` bytes (small ones test buffer boundaries).
    package init(
        source: any ByteSource, bufferCapacity: Int,
        maximumDepth: Int = JSONParser.defaultMaximumDepth
    ) {
        buffer = ReadBuffer(source: source, capacity: bufferCapacity)
        parser = JSONParser(maximumDepth: maximumDepth)
    }

    /// How many bytes of the input have been read so far.
    package var bytesConsumed: Int64 { buffer.windowOffset }

    /// Reads the object on the next non-blank line.
    ///
    /// - Returns: The next record, or `nil` at the end of the input.
    /// - Throws: A recoverable ``RecordSyntaxError`` for a malformed line or a value that is not
    ///   an object.
    package mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord? {
        if let failure { throw failure }
        while let length = try nextLineLength() {
            let number = line
            let window = buffer.window
            defer {
                buffer.consume(min(length + 1, window.count))
                line += 1
            }
            let text = UnsafeBufferPointer(rebasing: window[0..<length])
            guard let start = text.firstIndex(where: { !Self.isWhitespace($0) }) else { continue }
            return try record(in: text, number: number, valueStart: start)
        }
        return nil
    }

    /// Parses one non-blank line.
    private mutating func record(in text: UnsafeBufferPointer<UInt8>, number: Int, valueStart: Int)
        throws(RecordSyntaxError) -> SourceRecord
    {
        let offset = buffer.windowOffset
        let value: JSONValue
        do {
            value = try parser.parseDocument(
                text, at: JSONLocation(offset: offset, line: number, lineStartOffset: offset))
        } catch {
            throw error.recordError(isRecoverable: true)
        }
        let fields = try value.recordFields(line: number, column: valueStart + 1)
        return SourceRecord(line: number, fields: fields)
    }

    /// The length of the next line (without its line feed), reading until the line is whole.
    ///
    /// - Returns: `nil` at the end of the input.
    private mutating func nextLineLength() throws(RecordSyntaxError) -> Int? {
        do throws(InputError) {
            if !hasSkippedByteOrderMark {
                hasSkippedByteOrderMark = true
                try buffer.skipByteOrderMark()
            }
            var searched = 0
            while true {
                let window = buffer.window
                if let end = UnsafeBufferPointer(rebasing: window[searched...]).firstIndex(of: 0x0A)
                {
                    return searched + end
                }
                searched = window.count
                if buffer.isExhausted { return window.isEmpty ? nil : window.count }
                try buffer.refill()
            }
        } catch {
            let failure = RecordSyntaxError(readingFailure: error, line: line)
            self.failure = failure
            throw failure
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
}
