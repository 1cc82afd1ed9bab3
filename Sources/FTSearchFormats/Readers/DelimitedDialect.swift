/// The rules that tell CSV from TSV: how a record is split into fields and how a field's bytes
/// are decoded. ``DelimitedTextReader`` does everything else (header, field counts, UTF-8,
/// line numbers, errors), so both formats behave the same way where they can.
package protocol DelimitedDialect {
    /// Whether a carriage return on its own ends a line (CSV) or is ordinary data (TSV).
    static var endsLineAtLoneCarriageReturn: Bool { get }

    /// Finds the fields of the record that starts at `bytes[0]` (never a blank line).
    ///
    /// - Parameters:
    ///   - bytes: The unread bytes; the record may run past their end.
    ///   - isFinal: Whether the input ends after `bytes`.
    ///   - spans: Receives one span per field (emptied first).
    /// - Returns: The extent of the record, or ``DelimitedScan/needsMoreInput`` when `bytes`
    ///   ends inside it and `isFinal` is false.
    static func scanRecord(
        _ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, into spans: inout [FieldSpan]
    ) -> DelimitedScan

    /// Appends the decoded bytes of a field whose span has `needsDecoding` set.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, appendingTo output: inout [UInt8])
}

/// Where one field lies in a reader's window, found before any string is made.
package struct FieldSpan {
    /// The offset of the field's first byte in the scanned bytes (inside the quotes, for CSV).
    package var start: Int
    /// The offset just past the field's last byte.
    package var end: Int
    /// Whether the bytes contain escapes (doubled quotes, backslashes) that must be decoded.
    package var needsDecoding: Bool
    /// Whether every byte is below 0x80, so no UTF-8 validation is needed.
    package var isASCII: Bool
}

/// What scanning one record found.
package enum DelimitedScan {
    /// The record runs past the end of the bytes; read more and scan it again.
    case needsMoreInput
    /// A complete record of `length` bytes (its line break included) spanning `lineBreaks` line
    /// breaks, with the first problem found in it, if any. The reader can go on after it.
    case record(length: Int, lineBreaks: Int, problem: DelimitedProblem?)
    /// A problem after which the rest of the input cannot be read (an unterminated quote).
    case unreadable(DelimitedProblem)
}

/// Something wrong in a record, at a byte offset from the start of the record.
package struct DelimitedProblem: Equatable {
    package var offset: Int
    package var reason: String
}

/// ASCII bytes the delimited dialects look for.
package enum DelimitedByte {
    package static let lineFeed: UInt8 = 0x0A
    package static let carriageReturn: UInt8 = 0x0D
    package static let tab: UInt8 = 0x09
    package static let comma: UInt8 = 0x2C
    package static let quote: UInt8 = 0x22
    package static let backslash: UInt8 = 0x5C
}
