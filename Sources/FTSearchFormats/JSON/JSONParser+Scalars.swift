/// Strings, numbers and the literals `true`, `false`, `null` (RFC 8259 sections 3, 6 and 7).
extension JSONParser {
    /// Parses the scalar value that starts with `byte`.
    package mutating func parseScalar(_ cursor: inout JSONCursor, startingWith byte: UInt8)
        throws(JSONInterruption) -> JSONValue
    {
        switch byte {
        case JSONByte.quote: return .string(try parseString(&cursor))
        case JSONByte.minus, JSONByte.zero...JSONByte.nine: return .number(try parseNumber(&cursor))
        case UInt8(ascii: "t"):
            try parseLiteral(&cursor, "true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral(&cursor, "false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral(&cursor, "null")
            return .null
        default:
            throw cursor.unexpected(byte, expected: "a value")
        }
    }

    // MARK: - Strings

    /// Parses the string whose opening quote is at the cursor.
    package mutating func parseString(_ cursor: inout JSONCursor) throws(JSONInterruption) -> String
    {
        let bytes = cursor.bytes
        let opening = cursor.index
        var index = opening + 1
        var seen: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == JSONByte.quote {
                let text = try makeString(
                    cursor, from: opening + 1, to: index, isASCII: seen < 0x80)
                cursor.index = index + 1
                return text
            }
            if byte == JSONByte.backslash {
                return try parseEscapedString(&cursor, firstEscape: index, seen: seen)
            }
            if byte < 0x20 { throw controlCharacter(byte, in: cursor, at: index) }
            seen |= byte
            index += 1
        }
        throw cursor.isFinal ? cursor.error("unterminated string", at: opening) : .needsMoreInput
    }

    /// Parses the rest of a string from its first backslash, decoding into `decodedString`.
    private mutating func parseEscapedString(
        _ cursor: inout JSONCursor, firstEscape: Int, seen seenBefore: UInt8
    ) throws(JSONInterruption) -> String {
        let bytes = cursor.bytes
        let opening = cursor.index
        decodedString.removeAll(keepingCapacity: true)
        decodedString.append(
            contentsOf: UnsafeBufferPointer(rebasing: bytes[(opening + 1)..<firstEscape]))
        var index = firstEscape
        var seen = seenBefore
        while true {
            guard index < bytes.count else {
                throw cursor.isFinal
                    ? cursor.error("unterminated string", at: opening) : .needsMoreInput
            }
            let byte = bytes[index]
            if byte == JSONByte.quote { break }
            if byte == JSONByte.backslash {
                index = try decodeEscape(cursor, at: index, stringStart: opening)
                continue
            }
            if byte < 0x20 { throw controlCharacter(byte, in: cursor, at: index) }
            seen |= byte
            decodedString.append(byte)
            index += 1
        }
        // Escapes are ASCII, so the raw bytes are valid UTF-8 exactly when the unescaped are.
        if seen >= 0x80 {
            try validateUTF8(cursor, from: opening + 1, to: index)
        }
        cursor.index = index + 1
        return String(decoding: decodedString, as: UTF8.self)
    }

    /// Decodes the escape whose backslash is at `index` into `decodedString`.
    ///
    /// - Returns: The offset just after the escape.
    private mutating func decodeEscape(_ cursor: JSONCursor, at index: Int, stringStart: Int)
        throws(JSONInterruption) -> Int
    {
        let bytes = cursor.bytes
        guard index + 1 < bytes.count else {
            throw cursor.isFinal
                ? cursor.error("unterminated string", at: stringStart) : .needsMoreInput
        }
        let decoded: UInt8
        switch bytes[index + 1] {
        case JSONByte.quote, JSONByte.backslash, UInt8(ascii: "/"): decoded = bytes[index + 1]
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            return try decodeUnicodeEscape(cursor, at: index, stringStart: stringStart)
        default:
            throw cursor.error("invalid escape in a string", at: index)
        }
        decodedString.append(decoded)
        return index + 2
    }

    /// Decodes a `\u` escape and its four hex digits at `index`, combining a surrogate pair
    /// written as two escapes.
    private mutating func decodeUnicodeEscape(_ cursor: JSONCursor, at index: Int, stringStart: Int)
        throws(JSONInterruption) -> Int
    {
        let unit = try hexadecimalUnit(cursor, at: index, stringStart: stringStart)
        var end = index + 6
        var scalar = Unicode.Scalar(unit) ?? "\u{FFFD}"  // nil for a surrogate
        if (0xD800...0xDBFF).contains(unit), let low = try lowSurrogate(cursor, at: end) {
            scalar = Unicode.Scalar(0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00))!
            end += 6
        }
        decodedString.append(contentsOf: UTF8.encode(scalar)!)
        return end
    }

    /// The low surrogate escaped at `index`, if one is there.
    private func lowSurrogate(_ cursor: JSONCursor, at index: Int) throws(JSONInterruption)
        -> UInt16?
    {
        let bytes = cursor.bytes
        if index < bytes.count && bytes[index] != JSONByte.backslash { return nil }
        if index + 1 < bytes.count && bytes[index + 1] != UInt8(ascii: "u") { return nil }
        guard index + 6 <= bytes.count else {
            if cursor.isFinal { return nil }
            throw .needsMoreInput
        }
        guard let unit = hexadecimalValue(bytes, from: index + 2), (0xDC00...0xDFFF).contains(unit)
        else { return nil }
        return unit
    }

    /// The four hexadecimal digits of the `\u` escape at `index`.
    private func hexadecimalUnit(_ cursor: JSONCursor, at index: Int, stringStart: Int)
        throws(JSONInterruption) -> UInt16
    {
        let bytes = cursor.bytes
        let available = min(bytes.count, index + 6)
        for offset in (index + 2)..<available where Self.digitValue(bytes[offset]) == nil {
            throw cursor.error("invalid \\u escape in a string", at: index)
        }
        guard available == index + 6, let unit = hexadecimalValue(bytes, from: index + 2) else {
            throw cursor.isFinal
                ? cursor.error("unterminated string", at: stringStart) : .needsMoreInput
        }
        return unit
    }

    private func hexadecimalValue(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> UInt16? {
        var value: UInt16 = 0
        for offset in index..<(index + 4) {
            guard let digit = Self.digitValue(bytes[offset]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private static func digitValue(_ byte: UInt8) -> UInt16? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt16(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt16(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt16(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Makes a string of raw (unescaped) bytes, which must be UTF-8.
    private func makeString(_ cursor: JSONCursor, from start: Int, to end: Int, isASCII: Bool)
        throws(JSONInterruption) -> String
    {
        let raw = UnsafeBufferPointer(rebasing: cursor.bytes[start..<end])
        if let text = UTF8Text.string(from: raw, isASCII: isASCII) { return text }
        try validateUTF8(cursor, from: start, to: end)
        preconditionFailure("String(validating:) and UTF8Text disagree about \(Array(raw))")
    }

    private func validateUTF8(_ cursor: JSONCursor, from start: Int, to end: Int)
        throws(JSONInterruption)
    {
        let raw = UnsafeBufferPointer(rebasing: cursor.bytes[start..<end])
        if let offset = UTF8Text.offsetOfFirstInvalidSequence(in: raw) {
            throw cursor.error("invalid UTF-8 in a string", at: start + offset)
        }
    }

    private func controlCharacter(_ byte: UInt8, in cursor: JSONCursor, at index: Int)
        -> JSONInterruption
    {
        cursor.error(
            "unescaped control character (\(JSONCursor.describe(byte))) in a string", at: index)
    }

    // MARK: - Numbers and literals

    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, keeping its text.
    package func parseNumber(_ cursor: inout JSONCursor) throws(JSONInterruption) -> String {
        let bytes = cursor.bytes
        let start = cursor.index
        var index = start
        func byte(at offset: Int) throws(JSONInterruption) -> UInt8? {
            if offset < bytes.count { return bytes[offset] }
            if cursor.isFinal { return nil }
            throw .needsMoreInput
        }
        func isDigit(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return byte >= JSONByte.zero && byte <= JSONByte.nine
        }
        func skipDigits(after what: String) throws(JSONInterruption) {
            let first = try byte(at: index)
            guard isDigit(first) else {
                throw cursor.error(
                    "expected a digit \(what), found \(JSONCursor.describe(first))", at: index)
            }
            repeat { index += 1 } while isDigit(try byte(at: index))
        }

        if bytes[index] == JSONByte.minus { index += 1 }
        if try byte(at: index) == JSONByte.zero {
            index += 1
            if isDigit(try byte(at: index)) {
                throw cursor.error("leading zeros are not allowed in a number", at: start)
            }
        } else {
            try skipDigits(after: "in a number")
        }
        if try byte(at: index) == JSONByte.dot {
            index += 1
            try skipDigits(after: "after a decimal point")
        }
        if let exponent = try byte(at: index), exponent | 0x20 == UInt8(ascii: "e") {
            index += 1
            if let sign = try byte(at: index), sign == JSONByte.plus || sign == JSONByte.minus {
                index += 1
            }
            try skipDigits(after: "in an exponent")
        }
        cursor.index = index
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// Consumes `word` (`true`, `false` or `null`).
    package func parseLiteral(_ cursor: inout JSONCursor, _ word: StaticString)
        throws(JSONInterruption)
    {
        let bytes = cursor.bytes
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for (offset, letter) in expected.enumerated() {
            let index = cursor.index + offset
            guard index < bytes.count else {
                if cursor.isFinal { break }
                throw .needsMoreInput
            }
            if bytes[index] == letter { continue }
            throw cursor.error("invalid literal, expected '\(word)'")
        }
        guard cursor.index + expected.count <= bytes.count else {
            throw cursor.error("invalid literal, expected '\(word)'")
        }
        cursor.index += expected.count
    }
}
