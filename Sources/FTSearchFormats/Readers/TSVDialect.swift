/// Tab-separated values: fields split on tabs, records on LF or CRLF, no quoting at all. A value
/// holds tabs, line breaks and backslashes as the escapes `\t`, `\n`, `\r` and `\\`; any other
/// backslash is kept as it is.
package enum TSVDialect: DelimitedDialect {
    package static var endsLineAtLoneCarriageReturn: Bool { false }

    package static func scanRecord(
        _ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, into spans: inout [FieldSpan]
    ) -> DelimitedScan {
        spans.removeAll(keepingCapacity: true)
        var index = 0
        while true {
            let start = index
            var seen: UInt8 = 0
            var hasEscapes = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == DelimitedByte.tab || byte == DelimitedByte.lineFeed { break }
                if byte == DelimitedByte.backslash { hasEscapes = true }
                seen |= byte
                index += 1
            }
            let atEnd = index == bytes.count
            if atEnd && !isFinal { return .needsMoreInput }
            if !atEnd && bytes[index] == DelimitedByte.tab {
                spans.append(
                    FieldSpan(
                        start: start, end: index, needsDecoding: hasEscapes, isASCII: seen < 0x80))
                index += 1
                continue
            }
            // The last field: drop the carriage return of a CRLF (or of a final CR).
            var end = index
            if end > start && bytes[end - 1] == DelimitedByte.carriageReturn { end -= 1 }
            spans.append(
                FieldSpan(start: start, end: end, needsDecoding: hasEscapes, isASCII: seen < 0x80))
            return atEnd
                ? .record(length: index, lineBreaks: 0, problem: nil)
                : .record(length: index + 1, lineBreaks: 1, problem: nil)
        }
    }

    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, appendingTo output: inout [UInt8]
    ) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == DelimitedByte.backslash && index < bytes.count else {
                output.append(byte)
                continue
            }
            switch bytes[index] {
            case UInt8(ascii: "t"): output.append(DelimitedByte.tab)
            case UInt8(ascii: "n"): output.append(DelimitedByte.lineFeed)
            case UInt8(ascii: "r"): output.append(DelimitedByte.carriageReturn)
            case DelimitedByte.backslash: output.append(DelimitedByte.backslash)
            default:
                // An unknown escape stays as written; its second byte is read on the next turn.
                output.append(byte)
                continue
            }
            index += 1
        }
    }
}
