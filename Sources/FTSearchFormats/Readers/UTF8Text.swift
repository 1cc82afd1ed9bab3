/// Turning validated UTF-8 bytes into `String`s, and locating bytes that are not UTF-8.
package enum UTF8Text {
    /// Makes a string from UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - bytes: The bytes of the text.
    ///   - isASCII: Whether the caller saw no byte of 0x80 or above (the fast path).
    /// - Returns: The text, or `nil` when the bytes are not valid UTF-8.
    @inline(__always)
    package static func string(from bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        // `String(validating:as:)` costs about a thousand instructions more per string (a
        // generic validation that looks its buffer type up at run time), a tenth of a CSV
        // record's reading when its fields are not ASCII.
        guard isASCII || offsetOfFirstInvalidSequence(in: bytes) == nil else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence
    /// (Unicode table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
    ///
    /// - Returns: The offset of the start of the first ill-formed sequence, or `nil` when all of
    ///   `bytes` is valid UTF-8.
    package static func offsetOfFirstInvalidSequence(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            guard let length = validSequenceLength(in: bytes, at: index) else { return index }
            index += length
        }
        return nil
    }

    /// The length of the well-formed multi-byte sequence starting at `index`, or `nil`.
    private static func validSequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int)
        -> Int?
    {
        var continuationCount: Int
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        switch bytes[index] {
        case 0xC2...0xDF: continuationCount = 1
        case 0xE0:
            continuationCount = 2
            lowest = 0xA0
        case 0xED:
            continuationCount = 2
            highest = 0x9F
        case 0xE1...0xEF: continuationCount = 2
        case 0xF0:
            continuationCount = 3
            lowest = 0x90
        case 0xF4:
            continuationCount = 3
            highest = 0x8F
        case 0xF1...0xF3: continuationCount = 3
        default: return nil
        }
        guard index + continuationCount < bytes.count else { return nil }
        for offset in 1...continuationCount {
            let byte = bytes[index + offset]
            guard byte >= lowest && byte <= highest else { return nil }
            lowest = 0x80
            highest = 0xBF
        }
        return continuationCount + 1
    }
}
