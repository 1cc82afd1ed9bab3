@testable import FTSearchFormats
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONParser.parseDocument(bytes(text))
    }

    private func error(parsing input: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth)
        -> JSONSyntaxError?
    {
        do {
            _ = try JSONParser.parseDocument(input, maximumDepth: maximumDepth)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Values

    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        (" false ", .bool(false)),
        ("0", .number("0")),
        ("-0", .number("-0")),
        ("1.50", .number("1.50")),
        ("-12.5e+3", .number("-12.5e+3")),
        ("1E400", .number("1E400")),
        ("123456789012345678901234567890", .number("123456789012345678901234567890")),
        ("\"\"", .string("")),
        ("\"caf\u{E9} \u{1F600}\"", .string("caf\u{E9} \u{1F600}")),
        (#""\" \\ \/ \b \f \n \r \t""#, .string("\" \\ / \u{08} \u{0C} \n \r \t")),
        (#""\u0041\u00e9\u20AC\u0000""#, .string("A\u{E9}\u{20AC}\u{0}")),
        (#""\uD834\uDD1E""#, .string("\u{1D11E}")),
        (#""\ud83d\ude00 ok""#, .string("\u{1F600} ok")),
        ("[]", .array([])),
        (
            "[1, [2, []], {}]",
            .array([.number("1"), .array([.number("2"), .array([])]), .object([])])
        ),
        (
            "{\"b\": 1, \"a\": [true, null]}",
            .object([
                JSONMember(key: "b", value: .number("1")),
                JSONMember(key: "a", value: .array([.bool(true), .null])),
            ])
        ),
        (
            "{\"a\": 1, \"a\": 2}",
            .object([
                JSONMember(key: "a", value: .number("1")),
                JSONMember(key: "a", value: .number("2")),
            ])
        ),
        (" \t\r\n[\n1\r\n]\n ", .array([.number("1")])),
    ])
    func acceptsValue(text: String, expected: JSONValue) throws {
        #expect(try parse(text) == expected)
    }

    @Test(arguments: [
        (#""\uD800""#, "\u{FFFD}"),
        (#""\uDC00 x""#, "\u{FFFD} x"),
        (#""\uD800\uD800\uDC00""#, "\u{FFFD}\u{10000}"),
        (#""\uD800\n""#, "\u{FFFD}\n"),
        (#""\uD800\u0041""#, "\u{FFFD}A"),
        (#""\uDBFF""#, "\u{FFFD}"),
    ])
    func loneSurrogateEscapeBecomesReplacementCharacter(text: String, expected: String) throws {
        #expect(try parse(text) == .string(expected))
    }

    // MARK: - Errors

    @Test(arguments: [
        ("", 1, 1, "expected a value, found end of input"),
        ("   ", 1, 4, "expected a value, found end of input"),
        ("[1,]", 1, 4, "expected a value, found ']'"),
        ("{\"a\":1,}", 1, 8, "expected a string key, found '}'"),
        ("[1 2]", 1, 4, "expected ',' or ']' after an array element, found '2'"),
        ("{\"a\" 1}", 1, 6, "expected ':' after an object key, found '1'"),
        ("{\"a\":1 \"b\":2}", 1, 8, "expected ',' or '}' after an object member, found '\"'"),
        ("{a:1}", 1, 2, "expected a string key, found 'a'"),
        ("[1] // comment", 1, 5, "unexpected text after the JSON value: '/'"),
        ("[1]\n\n  x", 3, 3, "unexpected text after the JSON value: 'x'"),
        ("NaN", 1, 1, "expected a value, found 'N'"),
        ("[-Infinity]", 1, 3, "expected a digit in a number, found 'I'"),
        ("[01]", 1, 2, "leading zeros are not allowed in a number"),
        ("[-012]", 1, 2, "leading zeros are not allowed in a number"),
        ("[1.]", 1, 4, "expected a digit after a decimal point, found ']'"),
        ("[.5]", 1, 2, "expected a value, found '.'"),
        ("[1e]", 1, 4, "expected a digit in an exponent, found ']'"),
        ("[+1]", 1, 2, "expected a value, found '+'"),
        ("[tru]", 1, 2, "invalid literal, expected 'true'"),
        ("nul", 1, 1, "invalid literal, expected 'null'"),
        ("[True]", 1, 2, "expected a value, found 'T'"),
        ("\"abc", 1, 1, "unterminated string"),
        ("[\"a\tb\"]", 1, 4, "unescaped control character (byte 0x09) in a string"),
        ("\n\"a\nb\"", 2, 3, "unescaped control character (byte 0x0A) in a string"),
        (#"["\x"]"#, 1, 3, "invalid escape in a string"),
        (#"["\u12G4"]"#, 1, 3, #"invalid \u escape in a string"#),
        (#"["\uD800\u"]"#, 1, 9, #"invalid \u escape in a string"#),
        (#"["\"#, 1, 2, "unterminated string"),
        ("\u{FEFF}[]", 1, 1, "expected a value, found byte 0xEF"),
        ("[1]\u{0}", 1, 4, "unexpected text after the JSON value: byte 0x00"),
        ("[\u{0B}]", 1, 2, "expected a value, found byte 0x0B"),
    ])
    func rejectsWithLocation(text: String, line: Int, column: Int, reason: String) {
        #expect(
            error(parsing: bytes(text))
                == JSONSyntaxError(line: line, column: column, reason: reason))
    }

    @Test(arguments: [
        (bytes("[\"ab") + [0xC3] + bytes("\"]"), 5),
        (bytes("[\"") + [0xED, 0xA0, 0x80] + bytes("\"]"), 3),
        (bytes("[\"\\n") + [0xF8, 0x88, 0x80, 0x80, 0x80] + bytes("\"]"), 5),
        (bytes("{\"k") + [0xFF] + bytes("\": 1}"), 4),
    ])
    func rejectsInvalidUTF8InStrings(input: [UInt8], column: Int) {
        #expect(
            error(parsing: input)
                == JSONSyntaxError(line: 1, column: column, reason: "invalid UTF-8 in a string"))
    }

    // MARK: - Nesting depth

    private func nested(_ depth: Int) -> [UInt8] {
        Array(repeating: JSONByte.openBracket, count: depth)
            + Array(repeating: JSONByte.closeBracket, count: depth)
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        var value = try JSONParser.parseDocument(nested(512))
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            value = elements.first ?? .null
        }
        #expect(depth == 512)
    }

    @Test(arguments: [513, 100_000])
    func rejectsDeeperNesting(depth: Int) {
        #expect(
            error(parsing: nested(depth))
                == JSONSyntaxError(line: 1, column: 513, reason: "nesting deeper than 512 levels"))
    }

    @Test func rejectsHundredThousandUnclosedArraysAndObjects() {
        let arrays = Array(repeating: JSONByte.openBracket, count: 100_000)
        #expect(error(parsing: arrays)?.reason == "nesting deeper than 512 levels")
        let objects = Array(String(repeating: "{\"a\":", count: 100_000).utf8)
        #expect(
            error(parsing: objects)
                == JSONSyntaxError(
                    line: 1, column: 512 * 5 + 1, reason: "nesting deeper than 512 levels"))
    }

    @Test func depthLimitIsConfigurable() {
        #expect(error(parsing: bytes("[[1]]"), maximumDepth: 2) == nil)
        #expect(
            error(parsing: bytes("[{}]"), maximumDepth: 1)
                == JSONSyntaxError(line: 1, column: 2, reason: "nesting deeper than 1 levels"))
    }

    // MARK: - Streaming

    /// Every strict prefix of a value needs more input; it never parses as something else or fails.
    @Test(arguments: [
        #"{"name": "Ann \"A\" \u00e9\uD83D\uDE00", "age": 31, "tags": ["a", {"b": [true, false, null]}], "x": -1.5e-3}"#,
        "[12345, 0, -0.25E+10, \"\u{1F600}\"]",
        "\"text\"",
        "-123.456e789",
    ])
    func prefixesNeedMoreInput(text: String) throws {
        let input = bytes(text)
        var parser = JSONParser()
        for length in 0..<input.count {
            let outcome = input.withUnsafeBufferPointer { whole in
                var cursor = JSONCursor(
                    bytes: UnsafeBufferPointer(rebasing: whole[..<length]), isFinal: false,
                    at: .start)
                return Result { () throws(JSONInterruption) in try parser.parseValue(&cursor) }
            }
            guard case .failure(.needsMoreInput) = outcome else {
                Issue.record("prefix of \(length) bytes gave \(outcome)")
                return
            }
        }
        #expect(try JSONParser.parseDocument(input) == parser.withFinalWindow(input))
    }

    @Test func cursorTracksLinesAndColumnsAcrossWindows() throws {
        let input = bytes("[\n  {\"a\": 1},\r\n  {\"b\":\n 2}\n]")
        var parser = JSONParser()
        var location = JSONLocation.start
        try input.withUnsafeBufferPointer { whole in
            var cursor = JSONCursor(
                bytes: UnsafeBufferPointer(rebasing: whole[1...]), isFinal: true,
                at: JSONLocation(offset: 1, line: 1, lineStartOffset: 0))
            cursor.skipWhitespace()
            #expect(cursor.location == JSONLocation(offset: 4, line: 2, lineStartOffset: 2))
            _ = try parser.parseValue(&cursor)
            cursor.index += 1  // the comma
            cursor.skipWhitespace()
            location = cursor.location
        }
        #expect(location == JSONLocation(offset: 17, line: 3, lineStartOffset: 15))
        #expect(location.column == 3)
    }
}

extension JSONParser {
    /// Parses `input` as a final window (a helper for comparing with ``parseDocument(_:at:)``).
    fileprivate mutating func withFinalWindow(_ input: [UInt8]) throws -> JSONValue {
        try input.withUnsafeBufferPointer { whole in
            var cursor = JSONCursor(bytes: whole, isFinal: true, at: .start)
            do throws(JSONInterruption) {
                return try parseValue(&cursor)
            } catch {
                throw JSONSyntaxError(line: 0, column: 0, reason: "\(error)")
            }
        }
    }
}
