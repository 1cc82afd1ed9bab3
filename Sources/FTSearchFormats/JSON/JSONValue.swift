/// A JSON value exactly as it was written in an input file.
///
/// Numbers keep their literal text (`1.50`, `1e400`) so that nothing is lost or rounded on the
/// way from the input file to the database and back; objects keep their members in input order.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number, as its literal JSON text.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Hashable, Sendable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONValue

    /// Creates a member.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue {
    /// The text of a scalar value: strings as they are, numbers as written, booleans as
    /// `true`/`false`; `nil` for null, arrays and objects.
    public var scalarText: String? {
        switch self {
        case .string(let text), .number(let text): text
        case .bool(let value): value ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// The compact JSON text of the value (no insignificant whitespace).
    public var jsonText: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// Appends the compact JSON text of the value to `output`.
    public func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let literal): output += literal
        case .string(let text): JSONValue.writeQuoted(text, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            JSONValue.writeObject(members, to: &output)
        }
    }

    /// Appends `{"key":value,...}` for `members` to `output`.
    public static func writeObject(_ members: [JSONMember], to output: inout String) {
        output += "{"
        for (index, member) in members.enumerated() {
            if index > 0 { output += "," }
            writeQuoted(member.key, to: &output)
            output += ":"
            member.value.write(to: &output)
        }
        output += "}"
    }

    /// Appends `{"key":value,...}` for `members` to `output` as UTF-8, as
    /// the String version does: the bulk import's path, without String appends.
    package static func writeObject(_ members: [JSONMember], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        for (index, member) in members.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            writeQuoted(member.key, to: &output)
            output.append(UInt8(ascii: ":"))
            if case .string(let text) = member.value {
                writeQuoted(text, to: &output)
            } else {
                var text = ""
                member.value.write(to: &text)
                output.append(contentsOf: text.utf8)
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    private static func writeQuoted(_ text: String, to output: inout [UInt8]) {
        var text = text
        let isPlain = text.withUTF8 { bytes in
            guard !needsEscaping(bytes) else { return false }
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: bytes)
            output.append(UInt8(ascii: "\""))
            return true
        }
        if !isPlain {
            var quoted = ""
            writeQuoted(text, to: &quoted)
            output.append(contentsOf: quoted.utf8)
        }
    }

    /// Whether `text` has a character that ``writeQuoted(_:to:)`` escapes.
    private static func needsEscaping(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(needsEscaping)
    }

    /// Whether the UTF-8 `bytes` have a character that ``writeQuoted(_:to:)`` escapes.
    private static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return true }
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            if byte == 0xE2 && index + 2 < bytes.count && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// Appends `text` as a JSON string literal, escaping quotes, backslashes and control
    /// characters (RFC 8259 section 7).
    public static func writeQuoted(_ text: String, to output: inout String) {
        output += "\""
        if !needsEscaping(text) {  // the common case: append the text whole
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                output += "\\u"
                let hex = String(scalar.value, radix: 16)
                output += String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
