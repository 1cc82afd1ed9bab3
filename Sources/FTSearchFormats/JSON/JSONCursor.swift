/// A position in a window of JSON bytes, with the line and column bookkeeping that error
/// messages need.
///
/// Lines are counted at line feeds (a CRLF counts once; a lone CR is whitespace but does not
/// start a line). Columns are 1-based byte offsets from the start of the line.
package struct JSONCursor {
    /// The bytes available; the text may go on after them unless `isFinal`.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// Whether the input ends after `bytes`.
    package let isFinal: Bool
    /// The offset in the input of `bytes[0]`.
    package let bytesOffset: Int64
    /// The offset in `bytes` of the next byte to read.
    package var index: Int
    /// The 1-based line of `bytes[index]`.
    package var line: Int
    /// The offset in the input of the first byte of `line`.
    package var lineStartOffset: Int64

    package init(bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, at location: JSONLocation) {
        self.bytes = bytes
        self.isFinal = isFinal
        bytesOffset = location.offset
        index = 0
        line = location.line
        lineStartOffset = location.lineStartOffset
    }

    /// Where the cursor is, to resume from after the bytes before it have been consumed.
    package var location: JSONLocation {
        JSONLocation(
            offset: bytesOffset + Int64(index), line: line, lineStartOffset: lineStartOffset)
    }

    /// The 1-based column of `bytes[offset]` (on the cursor's line).
    package func column(at offset: Int) -> Int {
        Int(bytesOffset + Int64(offset) - lineStartOffset) + 1
    }

    /// The next byte without consuming it; `nil` at the end of the input.
    ///
    /// - Throws: ``JSONInterruption/needsMoreInput`` at the end of `bytes` when more may follow.
    @inline(__always)
    package func peek() throws(JSONInterruption) -> UInt8? {
        if index < bytes.count { return bytes[index] }
        if isFinal { return nil }
        throw .needsMoreInput
    }

    /// Skips spaces, tabs, carriage returns and line feeds (RFC 8259 section 2).
    @inline(__always)
    package mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte <= 0x20 else { return }
            switch byte {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStartOffset = bytesOffset + Int64(index)
            default: return
            }
        }
    }

    /// A syntax error at `offset` (the cursor's index when `nil`).
    package func error(_ reason: String, at offset: Int? = nil) -> JSONInterruption {
        .malformed(JSONSyntaxError(line: line, column: column(at: offset ?? index), reason: reason))
    }

    /// The error for finding `byte` (or the end of the input) where `expectation` should be.
    package func unexpected(_ byte: UInt8?, expected expectation: String) -> JSONInterruption {
        error("expected \(expectation), found \(JSONCursor.describe(byte))")
    }

    /// How an error message names a byte: `'x'`, `end of input`, `byte 0xC3`.
    package static func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "end of input" }
        guard byte >= 0x21 && byte < 0x7F else {
            let hex = String(byte, radix: 16, uppercase: true)
            return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
        }
        return "'\(Character(Unicode.Scalar(byte)))'"
    }
}

/// A place in a JSON input: the offset of a byte and the line it is on.
package struct JSONLocation: Equatable {
    /// The offset in the input.
    package var offset: Int64
    /// The 1-based line.
    package var line: Int
    /// The offset in the input of the first byte of the line.
    package var lineStartOffset: Int64

    /// The start of an input.
    package static let start = JSONLocation(offset: 0, line: 1, lineStartOffset: 0)

    /// The 1-based column of the location.
    package var column: Int { Int(offset - lineStartOffset) + 1 }
}

/// Why the parser stopped before completing a value.
package enum JSONInterruption: Error {
    /// The bytes end inside the value and the input goes on: read more and parse it again.
    case needsMoreInput
    /// The text is not JSON.
    case malformed(JSONSyntaxError)
}

/// Text that is not JSON, located by line and column.
package struct JSONSyntaxError: Error, Equatable {
    package var line: Int
    package var column: Int
    package var reason: String

    /// The same error as a reader reports it.
    package func recordError(isRecoverable: Bool) -> RecordSyntaxError {
        RecordSyntaxError(line: line, column: column, reason: reason, isRecoverable: isRecoverable)
    }
}
