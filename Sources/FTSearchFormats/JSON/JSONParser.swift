/// Parses JSON text (RFC 8259, strictly) into ``JSONValue``s, one value at a time, from a window
/// of bytes that may end before the value does.
///
/// - Nothing beyond RFC 8259 is accepted: no comments, no trailing commas, no `NaN`, no leading
///   zeros, no unescaped control characters in strings, no byte order mark inside the text.
/// - Strings must be valid UTF-8. `\u` escapes of a surrogate pair are combined; a lone surrogate
///   escape (which no UTF-8 text can hold) becomes U+FFFD REPLACEMENT CHARACTER.
/// - Containers may nest at most ``maximumDepth`` deep (512 by default); deeper text is rejected
///   with a located error. The parser keeps its own stack of open containers, so no input can
///   overflow the call stack.
/// - When the window ends inside the value and the input goes on, the parser throws
///   ``JSONInterruption/needsMoreInput``; the caller reads more and parses the value again from
///   its start.
///
/// See [RFC 8259](https://www.rfc-editor.org/rfc/rfc8259).
package struct JSONParser {
    /// The nesting depth allowed when none is given.
    package static let defaultMaximumDepth = 512

    /// How many arrays and objects may be open at once, counting those around the value.
    package let maximumDepth: Int
    /// The arrays and objects opened and not yet closed, innermost last.
    private var openContainers: [OpenContainer] = []
    /// The decoded bytes of a string with escapes (reused).
    package var decodedString: [UInt8] = []
    /// How many members the last object closed had: the records of a file mostly have the
    /// same fields, so the next object's members get that room at once, not by growing from 1.
    private var lastObjectSize = 0

    package init(maximumDepth: Int = JSONParser.defaultMaximumDepth) {
        precondition(maximumDepth > 0, "maximumDepth must be positive")
        self.maximumDepth = maximumDepth
    }

    private struct OpenContainer {
        var isObject: Bool
        var elements: [JSONValue] = []
        var members: [JSONMember] = []
        /// The key of the member whose value is being parsed.
        var key = ""
    }

    /// Parses one value, skipping whitespace before it (not after).
    ///
    /// - Parameters:
    ///   - cursor: Where the value starts; on return, just after it.
    ///   - depth: How many containers already enclose the value.
    /// - Throws: ``JSONInterruption``.
    package mutating func parseValue(_ cursor: inout JSONCursor, depth: Int = 0)
        throws(JSONInterruption)
        -> JSONValue
    {
        openContainers.removeAll(keepingCapacity: true)
        parsing: while true {
            cursor.skipWhitespace()
            var value: JSONValue
            switch try cursor.peek() {
            case JSONByte.openBrace:
                try open(&cursor, depth: depth)
                if try cursor.peek() == JSONByte.closeBrace {
                    cursor.index += 1
                    value = .object([])
                } else {
                    var object = OpenContainer(isObject: true, key: try parseKey(&cursor))
                    object.members.reserveCapacity(lastObjectSize)
                    openContainers.append(object)
                    continue parsing
                }
            case JSONByte.openBracket:
                try open(&cursor, depth: depth)
                if try cursor.peek() == JSONByte.closeBracket {
                    cursor.index += 1
                    value = .array([])
                } else {
                    openContainers.append(OpenContainer(isObject: false))
                    continue parsing
                }
            case let byte?:
                value = try parseScalar(&cursor, startingWith: byte)
            case nil:
                throw cursor.unexpected(nil, expected: "a value")
            }
            // Add the value to the innermost container; close every container that ends here.
            while let innermost = openContainers.indices.last {
                cursor.skipWhitespace()
                let next = try cursor.peek()
                if openContainers[innermost].isObject {
                    let key = openContainers[innermost].key
                    openContainers[innermost].members.append(JSONMember(key: key, value: value))
                    if next == JSONByte.comma {
                        cursor.index += 1
                        openContainers[innermost].key = try parseKey(&cursor)
                        continue parsing
                    }
                    guard next == JSONByte.closeBrace else {
                        throw cursor.unexpected(next, expected: "',' or '}' after an object member")
                    }
                    let members = openContainers.removeLast().members
                    lastObjectSize = members.count
                    value = .object(members)
                } else {
                    openContainers[innermost].elements.append(value)
                    if next == JSONByte.comma {
                        cursor.index += 1
                        continue parsing
                    }
                    guard next == JSONByte.closeBracket else {
                        throw cursor.unexpected(next, expected: "',' or ']' after an array element")
                    }
                    value = .array(openContainers.removeLast().elements)
                }
                cursor.index += 1
            }
            return value
        }
    }

    /// Parses a whole JSON text: one value with only whitespace around it.
    ///
    /// - Parameter location: Where `bytes` starts in its input (for error locations).
    /// - Throws: ``JSONSyntaxError``.
    package mutating func parseDocument(
        _ bytes: UnsafeBufferPointer<UInt8>, at location: JSONLocation = .start
    )
        throws(JSONSyntaxError) -> JSONValue
    {
        var cursor = JSONCursor(bytes: bytes, isFinal: true, at: location)
        do throws(JSONInterruption) {
            let value = try parseValue(&cursor)
            cursor.skipWhitespace()
            if let extra = try cursor.peek() {
                throw cursor.error(
                    "unexpected text after the JSON value: \(JSONCursor.describe(extra))")
            }
            return value
        } catch {
            switch error {
            case .malformed(let syntaxError): throw syntaxError
            case .needsMoreInput: preconditionFailure("a final window never needs more input")
            }
        }
    }

    /// Parses a whole JSON text held in memory (see ``parseDocument(_:at:)``).
    package static func parseDocument(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth)
        throws(JSONSyntaxError) -> JSONValue
    {
        var parser = JSONParser(maximumDepth: maximumDepth)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in
            try parser.parseDocument(buffer)
        }
    }

    /// Consumes `{` or `[` and the whitespace after it, if one more level of nesting is allowed.
    private func open(_ cursor: inout JSONCursor, depth: Int) throws(JSONInterruption) {
        guard depth + openContainers.count < maximumDepth else {
            throw cursor.error("nesting deeper than \(maximumDepth) levels")
        }
        cursor.index += 1
        cursor.skipWhitespace()
    }

    /// Parses `"key" :` (with whitespace around), leaving the cursor before the member's value.
    package mutating func parseKey(_ cursor: inout JSONCursor) throws(JSONInterruption) -> String {
        cursor.skipWhitespace()
        let quote = try cursor.peek()
        guard quote == JSONByte.quote else {
            throw cursor.unexpected(quote, expected: "a string key")
        }
        let key = try parseString(&cursor)
        cursor.skipWhitespace()
        let colon = try cursor.peek()
        guard colon == JSONByte.colon else {
            throw cursor.unexpected(colon, expected: "':' after an object key")
        }
        cursor.index += 1
        return key
    }
}

/// The ASCII bytes of JSON's grammar.
package enum JSONByte {
    package static let openBrace = UInt8(ascii: "{")
    package static let closeBrace = UInt8(ascii: "}")
    package static let openBracket = UInt8(ascii: "[")
    package static let closeBracket = UInt8(ascii: "]")
    package static let comma = UInt8(ascii: ",")
    package static let colon = UInt8(ascii: ":")
    package static let quote = UInt8(ascii: "\"")
    package static let backslash = UInt8(ascii: "\\")
    package static let minus = UInt8(ascii: "-")
    package static let plus = UInt8(ascii: "+")
    package static let dot = UInt8(ascii: ".")
    package static let zero = UInt8(ascii: "0")
    package static let nine = UInt8(ascii: "9")
}
