/// Reads the objects of a JSON document one at a time, without loading the whole document.
///
/// Two shapes are read:
/// - a top-level array of objects, `[{...}, {...}]`: each object is a record;
/// - a top-level object whose members are arrays of objects,
///   `{"people": [{...}], "animals": [{...}]}`: each object is a record whose `section` is the
///   member's key.
///
/// ```swift
/// var reader = JSONArrayReader(source: try InputFile(path: "people.json"))
/// while let record = try reader.nextRecord() {
///     print(record.section ?? "-", record.line, record.fields)
/// }
/// ```
///
/// Each record is returned as soon as its object has been parsed; a record's `line` is the line
/// of its `{`. A UTF-8 byte order mark at the start is skipped. The JSON must follow RFC 8259
/// strictly (see ``JSONParser``).
///
/// Errors carry the line and column of the problem. An array element that is well-formed JSON
/// but not an object (`expected an object, found a number`) is recoverable: the next call goes
/// on with the next element. Malformed JSON, a top-level value of another shape, text after the
/// top-level value and read failures are not: every later call throws the same error.
///
/// See [RFC 8259](https://www.rfc-editor.org/rfc/rfc8259).
package struct JSONArrayReader: RecordReader {
    /// Where the reader is in the document's outer structure.
    private enum Position {
        case beforeDocument
        /// After `[`: an element or `]` follows.
        case arrayStart(section: String?)
        /// After a `,` between elements: an element follows.
        case nextElement(section: String?)
        /// After an element: `,` or `]` follows.
        case afterElement(section: String?)
        /// After the top-level `{`: a key or `}` follows.
        case sectionsStart
        /// After a `,` between sections: a key follows.
        case nextSection
        /// After `"key":`: the section's array follows.
        case sectionValue(key: String)
        /// After a section's array: `,` or `}` follows.
        case afterSection
        /// After the top-level value: only whitespace may follow.
        case afterDocument
        case finished
    }

    private let buffer: ReadBuffer
    private var parser = JSONParser()
    private var position = Position.beforeDocument
    /// The location of the first byte of the buffer's window.
    private var location = JSONLocation.start
    private var failure: RecordSyntaxError?

    /// Creates a reader of the JSON document in `source`; nothing is read until the first record
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

    /// Reads the next object of the document.
    ///
    /// - Returns: The next record, or `nil` after the end of the document.
    /// - Throws: ``RecordSyntaxError`` for an element that is not an object (recoverable), for
    ///   malformed JSON or an unexpected document shape (not recoverable).
    package mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord? {
        if let failure { throw failure }
        do throws(RecordSyntaxError) {
            return try readRecord()
        } catch {
            if !error.isRecoverable { failure = error }
            throw error
        }
    }

    private mutating func readRecord() throws(RecordSyntaxError) -> SourceRecord? {
        while true {
            switch position {
            case .beforeDocument:
                try skipByteOrderMark()
                let byte = try nextSignificantByte()
                if byte == JSONByte.openBracket {
                    position = .arrayStart(section: nil)
                } else if byte == JSONByte.openBrace {
                    position = .sectionsStart
                } else {
                    throw unexpected(byte, expected: "a JSON array or object")
                }
                consumeByte()
            case .arrayStart(let section):
                if try nextSignificantByte() == JSONByte.closeBracket {
                    consumeByte()
                    position = section == nil ? .afterDocument : .afterSection
                } else {
                    return try readElement(in: section)
                }
            case .nextElement(let section):
                return try readElement(in: section)
            case .afterElement(let section):
                let byte = try nextSignificantByte()
                if byte == JSONByte.comma {
                    position = .nextElement(section: section)
                } else if byte == JSONByte.closeBracket {
                    position = section == nil ? .afterDocument : .afterSection
                } else {
                    throw unexpected(byte, expected: "',' or ']' after an array element")
                }
                consumeByte()
            case .sectionsStart:
                if try nextSignificantByte() == JSONByte.closeBrace {
                    consumeByte()
                    position = .afterDocument
                } else {
                    position = .sectionValue(key: try readSectionKey())
                }
            case .nextSection:
                position = .sectionValue(key: try readSectionKey())
            case .sectionValue(let key):
                let byte = try nextSignificantByte()
                guard byte == JSONByte.openBracket else {
                    var error = unexpected(byte, expected: "an array of objects for \"\(key)\"")
                    // A value where a section's array belongs: most likely one record given
                    // without the array around it.
                    if byte != JSONByte.openBrace && byte != nil {
                        error.reason += "; a file of one record is an array of it: [{...}]"
                    }
                    throw error
                }
                consumeByte()
                position = .arrayStart(section: key)
            case .afterSection:
                let byte = try nextSignificantByte()
                if byte == JSONByte.comma {
                    position = .nextSection
                } else if byte == JSONByte.closeBrace {
                    position = .afterDocument
                } else {
                    throw unexpected(byte, expected: "',' or '}' after an array of objects")
                }
                consumeByte()
            case .afterDocument:
                if let byte = try nextSignificantByte() {
                    throw RecordSyntaxError(
                        line: location.line, column: location.column,
                        reason:
                            "unexpected text after the top-level value: \(JSONCursor.describe(byte))",
                        isRecoverable: false)
                }
                position = .finished
            case .finished:
                return nil
            }
        }
    }

    /// Parses one array element, which must be an object.
    private mutating func readElement(in section: String?) throws(RecordSyntaxError) -> SourceRecord
    {
        _ = try nextSignificantByte()
        let start = location
        let depth = section == nil ? 1 : 2
        let value = try parse { (parser, cursor) throws(JSONInterruption) in
            try parser.parseValue(&cursor, depth: depth)
        }
        position = .afterElement(section: section)
        let fields = try value.recordFields(line: start.line, column: start.column)
        return SourceRecord(line: start.line, section: section, fields: fields)
    }

    private mutating func readSectionKey() throws(RecordSyntaxError) -> String {
        try parse { (parser, cursor) throws(JSONInterruption) in try parser.parseKey(&cursor) }
    }

    /// Runs `step` on the window, reading more and running it again until it has enough bytes.
    private mutating func parse<Result>(
        _ step: (inout JSONParser, inout JSONCursor) throws(JSONInterruption) -> Result
    ) throws(RecordSyntaxError) -> Result {
        while true {
            var cursor = JSONCursor(bytes: buffer.window, isFinal: buffer.isExhausted, at: location)
            do throws(JSONInterruption) {
                let result = try step(&parser, &cursor)
                consume(through: cursor)
                return result
            } catch {
                switch error {
                case .needsMoreInput: try refill()
                case .malformed(let syntaxError):
                    throw syntaxError.recordError(isRecoverable: false)
                }
            }
        }
    }

    /// Skips whitespace, reading more as needed.
    ///
    /// - Returns: The next byte after the whitespace (not consumed), or `nil` at the end.
    private mutating func nextSignificantByte() throws(RecordSyntaxError) -> UInt8? {
        while true {
            var cursor = JSONCursor(bytes: buffer.window, isFinal: buffer.isExhausted, at: location)
            cursor.skipWhitespace()
            consume(through: cursor)
            if cursor.index < cursor.bytes.count { return cursor.bytes[cursor.index] }
            if buffer.isExhausted { return nil }
            try refill()
        }
    }

    private mutating func consume(through cursor: JSONCursor) {
        buffer.consume(cursor.index)
        location = cursor.location
    }

    /// Consumes the single-byte token found by ``nextSignificantByte()``.
    private mutating func consumeByte() {
        buffer.consume(1)
        location.offset += 1
    }

    private mutating func skipByteOrderMark() throws(RecordSyntaxError) {
        do {
            try buffer.skipByteOrderMark()
        } catch {
            throw RecordSyntaxError(readingFailure: error, line: location.line)
        }
        location = JSONLocation(
            offset: buffer.windowOffset, line: 1, lineStartOffset: buffer.windowOffset)
    }

    private func refill() throws(RecordSyntaxError) {
        do {
            try buffer.refill()
        } catch {
            throw RecordSyntaxError(readingFailure: error, line: location.line)
        }
    }

    private func unexpected(_ byte: UInt8?, expected expectation: String) -> RecordSyntaxError {
        RecordSyntaxError(
            line: location.line, column: location.column,
            reason: "expected \(expectation), found \(JSONCursor.describe(byte))",
            isRecoverable: false)
    }
}
