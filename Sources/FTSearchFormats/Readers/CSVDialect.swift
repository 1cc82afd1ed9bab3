/// Comma-separated values as RFC 4180 defines them: fields split on commas, records on CRLF, LF
/// or a lone CR; a field in double quotes may hold commas, line breaks and doubled quotes.
///
/// A quote inside a field that does not start with one is ordinary text (`5'11"`), as
/// csv-spectrum and most CSV readers have it. Text after a closing quote (`"a"b`) is reported as
/// a problem of the record, and the scan goes on as if it were unquoted so that the next record
/// starts at the next line break.
package enum CSVDialect: DelimitedDialect {
    package static var endsLineAtLoneCarriageReturn: Bool { true }

    package static func scanRecord(
        _ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, into spans: inout [FieldSpan]
    ) -> DelimitedScan {
        spans.removeAll(keepingCapacity: true)
        var scanner = Scanner(bytes: bytes, isFinal: isFinal)
        while true {
            let field: FieldSpan?
            if scanner.index < bytes.count && bytes[scanner.index] == DelimitedByte.quote {
                switch scanner.scanQuotedField() {
                case .field(let span): field = span
                case .needsMoreInput: return .needsMoreInput
                case .unterminated(let problem): return .unreadable(problem)
                }
            } else {
                field = scanner.scanUnquotedField()
            }
            guard let field else { return .needsMoreInput }
            spans.append(field)
            switch scanner.scanSeparator() {
            case .needsMoreInput: return .needsMoreInput
            case .nextField: continue
            case .endOfRecord:
                return .record(
                    length: scanner.index, lineBreaks: scanner.lineBreaks, problem: scanner.problem)
            }
        }
    }

    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, appendingTo output: inout [UInt8]
    ) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            output.append(byte)
            // Inside quotes every quote is doubled: keep one of each pair.
            index += byte == DelimitedByte.quote ? 2 : 1
        }
    }
}

extension CSVDialect {
    private enum QuotedField {
        case field(FieldSpan)
        case needsMoreInput
        case unterminated(DelimitedProblem)
    }

    private enum Separator {
        case nextField
        case endOfRecord
        case needsMoreInput
    }

    /// The position of a scan within one record, and what it has seen so far.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let isFinal: Bool
        var index = 0
        var lineBreaks = 0
        var problem: DelimitedProblem?

        init(bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool) {
            self.bytes = bytes
            self.isFinal = isFinal
        }

        /// Scans up to the next comma or line break; `nil` when the bytes end first.
        mutating func scanUnquotedField() -> FieldSpan? {
            let start = index
            var seen: UInt8 = 0
            while index < bytes.count {
                let byte = bytes[index]
                // Every byte the scan stops at is at most ',' (0x2C).
                if byte > DelimitedByte.comma {
                    seen |= byte
                    index += 1
                    continue
                }
                if isSeparator(byte) { break }
                index += 1
            }
            if index == bytes.count && !isFinal { return nil }
            return FieldSpan(start: start, end: index, needsDecoding: false, isASCII: seen < 0x80)
        }

        /// Scans a field that starts with a quote, up to and including its closing quote.
        mutating func scanQuotedField() -> QuotedField {
            let openingQuote = index
            index += 1
            let start = index
            var seen: UInt8 = 0
            var hasDoubledQuotes = false
            while true {
                guard index < bytes.count else {
                    guard isFinal else { return .needsMoreInput }
                    return .unterminated(
                        DelimitedProblem(offset: openingQuote, reason: "unterminated quoted field"))
                }
                let byte = bytes[index]
                if byte == DelimitedByte.quote {
                    guard index + 1 < bytes.count else {
                        if isFinal { break }
                        return .needsMoreInput
                    }
                    guard bytes[index + 1] == DelimitedByte.quote else { break }
                    hasDoubledQuotes = true
                    index += 2
                    continue
                }
                if byte == DelimitedByte.lineFeed {
                    lineBreaks += 1
                } else if byte == DelimitedByte.carriageReturn {
                    guard index + 1 < bytes.count || isFinal else { return .needsMoreInput }
                    if index + 1 == bytes.count || bytes[index + 1] != DelimitedByte.lineFeed {
                        lineBreaks += 1
                    }
                }
                seen |= byte
                index += 1
            }
            let end = index
            index += 1
            if index < bytes.count && !isSeparator(bytes[index]) {
                report(at: index, "text after a closing quote")
                guard scanUnquotedField() != nil else { return .needsMoreInput }
            }
            return .field(
                FieldSpan(
                    start: start, end: end, needsDecoding: hasDoubledQuotes, isASCII: seen < 0x80))
        }

        /// Consumes the comma or line break after a field.
        mutating func scanSeparator() -> Separator {
            guard index < bytes.count else { return isFinal ? .endOfRecord : .needsMoreInput }
            switch bytes[index] {
            case DelimitedByte.comma:
                index += 1
                return .nextField
            case DelimitedByte.lineFeed:
                index += 1
            default:  // a carriage return, alone or before a line feed
                guard index + 1 < bytes.count || isFinal else { return .needsMoreInput }
                index += 1
                if index < bytes.count && bytes[index] == DelimitedByte.lineFeed { index += 1 }
            }
            lineBreaks += 1
            return .endOfRecord
        }

        private func isSeparator(_ byte: UInt8) -> Bool {
            byte == DelimitedByte.comma || byte == DelimitedByte.lineFeed
                || byte == DelimitedByte.carriageReturn
        }

        private mutating func report(at offset: Int, _ reason: String) {
            if problem == nil { problem = DelimitedProblem(offset: offset, reason: reason) }
        }
    }
}
