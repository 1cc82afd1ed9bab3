/// The record reader behind ``CSVReader`` and ``TSVReader``: the first record names the fields,
/// every later record must have as many fields, blank lines are skipped, and every field must be
/// UTF-8.
///
/// A header name ending in `:json` (`tags:json`) marks a column of JSON values: its cells are
/// read as JSON text (`["a","b"]`, `42`, `"text"`) into the field named without the suffix, and
/// an empty cell means the record has no such field. That is how an export carries extra fields
/// that are not text, or not in every record, through CSV and TSV exactly.
///
/// Records are found by the dialect's scanner as byte spans in the read buffer; strings are made
/// only once a whole record is known to be in the buffer.
package struct DelimitedTextReader<Dialect: DelimitedDialect>: RecordReader {
    private let buffer: ReadBuffer
    /// The 1-based physical line at the start of the buffer's window.
    private var line = 1
    private var hasSkippedByteOrderMark = false
    /// The field names, once the header has been read (without a `:json` suffix).
    /// The names from the header, once the first record has been asked for; `nil` before,
    /// and for an empty input.
    package private(set) var fieldNames: [String]?
    /// Whether each column holds JSON values (its header name ends in `:json`); empty when none
    /// does.
    private var isJSONColumn: [Bool] = []
    /// The error that ended reading, thrown again by every later call.
    private var failure: RecordSyntaxError?
    private var spans: [FieldSpan] = []
    private var decoded: [UInt8] = []

    /// Creates a reader of the text in `source`, with a read buffer of `bufferCapacity` bytes
    /// (small ones test buffer boundaries); nothing is read until the first record is asked for.
    package init(source: any ByteSource, bufferCapacity: Int = ReadBuffer.defaultCapacity) {
        buffer = ReadBuffer(source: source, capacity: bufferCapacity)
    }

    /// How many bytes of the input have been read so far.
    package var bytesConsumed: Int64 { buffer.windowOffset }

    /// Reads the next record of `.string` fields named by the header.
    ///
    /// - Returns: The next record, or `nil` at the end of the input.
    /// - Throws: ``RecordSyntaxError`` for a malformed record or header.
    ///
    /// An import calls it through `any RecordReader`, whose witness for a generic type runs the
    /// unspecialized code, looking up type metadata for every record; these attributes give
    /// it a compiled copy per dialect, chosen at its entry (the runtime's metadata lookups
    /// took 2.6% of a 100,000-row CSV import's samples, 1.2% since).
    @_specialize(where Dialect == CSVDialect)
    @_specialize(where Dialect == TSVDialect)
    package mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord? {
        if let failure { throw failure }
        do throws(RecordSyntaxError) {
            if fieldNames == nil {
                guard let names = try readHeader() else { return nil }
                fieldNames = names
            }
            return try readRecord()
        } catch {
            if !error.isRecoverable { failure = error }
            throw error
        }
    }

    // MARK: - Header and records

    private mutating func readHeader() throws(RecordSyntaxError) -> [String]? {
        guard let scanned = try scanNextRecord() else { return nil }
        defer { finish(scanned) }
        if let problem = scanned.problem {
            throw error(problem.reason, at: problem.offset, recoverable: false)
        }
        var names: [String] = []
        names.reserveCapacity(spans.count)
        var firstField: [String: Int] = [:]
        var isJSONColumn: [Bool] = []
        for (position, span) in spans.enumerated() {
            guard var name = makeString(span) else {
                throw invalidUTF8(in: span, recoverable: false)
            }
            if name.isEmpty {
                throw error(
                    "empty field name in field \(position + 1)", at: span.start, recoverable: false)
            }
            isJSONColumn.append(name.hasSuffix(Self.jsonColumnSuffix))
            if isJSONColumn[position] { name.removeLast(Self.jsonColumnSuffix.count) }
            if let earlier = firstField[name] {
                throw error(
                    "duplicate field name \"\(name)\" in fields \(earlier + 1) and \(position + 1)",
                    at: span.start, recoverable: false)
            }
            firstField[name] = position
            names.append(name)
        }
        if isJSONColumn.contains(true) { self.isJSONColumn = isJSONColumn }
        return names
    }

    /// The end of the header name of a column of JSON values.
    package static var jsonColumnSuffix: String { ":json" }

    private mutating func readRecord() throws(RecordSyntaxError) -> SourceRecord? {
        guard let names = fieldNames, let scanned = try scanNextRecord() else { return nil }
        defer { finish(scanned) }
        if let problem = scanned.problem {
            throw error(problem.reason, at: problem.offset, recoverable: true)
        }
        guard spans.count == names.count else {
            let expected = names.count == 1 ? "1 field" : "\(names.count) fields"
            throw error("expected \(expected), found \(spans.count)", at: nil, recoverable: true)
        }
        var fields: [JSONMember] = []
        fields.reserveCapacity(names.count)
        for index in spans.indices {
            guard let text = makeString(spans[index]) else {
                throw invalidUTF8(in: spans[index], recoverable: true)
            }
            if !isJSONColumn.isEmpty && isJSONColumn[index] {
                guard !text.isEmpty else { continue }
                fields.append(JSONMember(key: names[index], value: try jsonValue(text, in: index)))
            } else {
                fields.append(JSONMember(key: names[index], value: .string(text)))
            }
        }
        return SourceRecord(line: line, fields: fields)
    }

    /// A record found by the scanner; its spans are in `spans`, relative to the window.
    private struct ScannedRecord {
        var length: Int
        var lineBreaks: Int
        var problem: DelimitedProblem?
    }

    /// Scans the next non-blank record, reading more input as needed.
    private mutating func scanNextRecord() throws(RecordSyntaxError) -> ScannedRecord? {
        try skipByteOrderMarkOnce()
        while true {
            guard try skipBlankLines() else { return nil }
            switch Dialect.scanRecord(buffer.window, isFinal: buffer.isExhausted, into: &spans) {
            case .needsMoreInput:
                try refill()
            case .record(let length, let lineBreaks, let problem):
                return ScannedRecord(length: length, lineBreaks: lineBreaks, problem: problem)
            case .unreadable(let problem):
                throw error(problem.reason, at: problem.offset, recoverable: false)
            }
        }
    }

    /// Consumes a record that has been turned into fields (or errors).
    private mutating func finish(_ scanned: ScannedRecord) {
        buffer.consume(scanned.length)
        line += scanned.lineBreaks
    }

    /// Consumes blank lines before the next record.
    ///
    /// - Returns: `false` at the end of the input.
    private mutating func skipBlankLines() throws(RecordSyntaxError) -> Bool {
        while true {
            let bytes = buffer.window
            var index = 0
            var isWaitingForInput = false
            scanning: while index < bytes.count {
                switch bytes[index] {
                case DelimitedByte.lineFeed:
                    index += 1
                case DelimitedByte.carriageReturn:
                    if index + 1 < bytes.count {
                        if bytes[index + 1] == DelimitedByte.lineFeed {
                            index += 2
                        } else if Dialect.endsLineAtLoneCarriageReturn {
                            index += 1
                        } else {
                            break scanning
                        }
                    } else if buffer.isExhausted {
                        index += 1  // a carriage return that ends the input ends its line
                    } else {
                        isWaitingForInput = true  // a lone CR or the start of a CRLF?
                        break scanning
                    }
                default:
                    break scanning
                }
                line += 1
            }
            buffer.consume(index)
            let isEmpty = buffer.window.isEmpty
            guard isEmpty || isWaitingForInput, !buffer.isExhausted else { return !isEmpty }
            try refill()
        }
    }

    private mutating func skipByteOrderMarkOnce() throws(RecordSyntaxError) {
        guard !hasSkippedByteOrderMark else { return }
        hasSkippedByteOrderMark = true
        do {
            try buffer.skipByteOrderMark()
        } catch {
            throw RecordSyntaxError(readingFailure: error, line: line)
        }
    }

    private func refill() throws(RecordSyntaxError) {
        do {
            try buffer.refill()
        } catch {
            throw RecordSyntaxError(readingFailure: error, line: line)
        }
    }

    // MARK: - Fields

    private mutating func makeString(_ span: FieldSpan) -> String? {
        let bytes = UnsafeBufferPointer(rebasing: buffer.window[span.start..<span.end])
        guard span.needsDecoding else { return UTF8Text.string(from: bytes, isASCII: span.isASCII) }
        decoded.removeAll(keepingCapacity: true)
        Dialect.decode(bytes, appendingTo: &decoded)
        return decoded.withUnsafeBufferPointer { UTF8Text.string(from: $0, isASCII: span.isASCII) }
    }

    /// The value of a cell of a `:json` column.
    private func jsonValue(_ text: String, in column: Int) throws(RecordSyntaxError) -> JSONValue {
        do {
            return try JSONParser.parseDocument(Array(text.utf8))
        } catch {
            throw self.error(
                "field \"\(fieldNames?[column] ?? "")\" holds invalid JSON: \(error.reason)",
                at: spans[column].start, recoverable: true)
        }
    }

    private func invalidUTF8(in span: FieldSpan, recoverable: Bool) -> RecordSyntaxError {
        let bytes = UnsafeBufferPointer(rebasing: buffer.window[span.start..<span.end])
        let offset = span.start + (UTF8Text.offsetOfFirstInvalidSequence(in: bytes) ?? 0)
        return error("invalid UTF-8", at: offset, recoverable: recoverable)
    }

    /// An error in the record at the start of the window. The column is given when `offset` is
    /// on the record's first line.
    private func error(_ reason: String, at offset: Int?, recoverable: Bool) -> RecordSyntaxError {
        RecordSyntaxError(
            line: line, column: offset.flatMap(columnOnFirstLine), reason: reason,
            isRecoverable: recoverable)
    }

    private func columnOnFirstLine(of offset: Int) -> Int? {
        let bytes = buffer.window
        for index in 0..<offset
        where bytes[index] == DelimitedByte.lineFeed
            || (Dialect.endsLineAtLoneCarriageReturn
                && bytes[index] == DelimitedByte.carriageReturn)
        {
            return nil
        }
        return offset + 1
    }
}
