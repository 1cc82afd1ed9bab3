@testable import FTSearchFormats
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

@Suite struct NDJSONReaderTests {
    private func read(_ text: String) -> [ReadEvent] {
        read(bytes(text))
    }

    private func read(_ input: [UInt8], chunkSize: Int = 1 << 16, bufferCapacity: Int = 1 << 16)
        -> [ReadEvent]
    {
        var reader = NDJSONReader(
            source: MemoryInput(input, chunkSize: chunkSize), bufferCapacity: bufferCapacity)
        return readEvents(&reader)
    }

    private static func record(line: Int, _ json: String) -> ReadEvent {
        guard case .object(let members) = try? JSONParser.parseDocument(bytes(json)) else {
            preconditionFailure("not an object: \(json)")
        }
        return .record(line: line, section: nil, fields: members)
    }

    @Test func oneObjectPerLine() {
        #expect(
            read("{\"name\": \"Ann\"}\n{\"name\": \"Bob\", \"tags\": [1, {}]}\n") == [
                Self.record(line: 1, #"{"name": "Ann"}"#),
                Self.record(line: 2, #"{"name": "Bob", "tags": [1, {}]}"#),
            ])
    }

    @Test(arguments: [
        "{\"a\": 1}\n{\"a\": 2}",
        "{\"a\": 1}\r\n{\"a\": 2}\r\n",
        "\u{FEFF}{\"a\": 1}\n{\"a\": 2}\n",
        "  {\"a\": 1}\t \n\t{ \"a\" : 2 }\r\n",
    ])
    func lineEndingsByteOrderMarkAndWhitespace(input: String) {
        #expect(
            read(input) == [Self.record(line: 1, #"{"a": 1}"#), Self.record(line: 2, #"{"a": 2}"#)])
    }

    @Test func blankLinesAreSkippedAndCounted() {
        #expect(
            read("\n{\"a\": 1}\n   \n\t\r\n\r\n{\"a\": 2}\n\n") == [
                Self.record(line: 2, #"{"a": 1}"#),
                Self.record(line: 6, #"{"a": 2}"#),
            ])
    }

    @Test(arguments: ["", "\n", " \r\n\t\n", "\u{FEFF}"])
    func inputWithoutObjectsHasNoRecords(input: String) {
        #expect(read(input) == [])
    }

    @Test func malformedLinesAndOtherValuesAreSkipped() {
        let input = """
            {"a": 1}
            {"a": 2,}
            [1, 2]
              "text"
            {"a": 3} {"a": 4}
            {"a": "unterminated
            {"a": 5}
            """
        #expect(
            read(input) == [
                Self.record(line: 1, #"{"a": 1}"#),
                .skipped(line: 2, column: 9, "expected a string key, found '}'"),
                .skipped(line: 3, column: 1, "expected an object, found an array"),
                .skipped(line: 4, column: 3, "expected an object, found a string"),
                .skipped(line: 5, column: 10, "unexpected text after the JSON value: '{'"),
                .skipped(line: 6, column: 7, "unterminated string"),
                Self.record(line: 7, #"{"a": 5}"#),
            ])
    }

    @Test func invalidUTF8IsSkippedWithItsColumn() {
        #expect(
            read(bytes("{\"a\": \"x") + [0xC0, 0xAF] + bytes("\"}\n{\"a\": 2}\n")) == [
                .skipped(line: 1, column: 9, "invalid UTF-8 in a string"),
                Self.record(line: 2, #"{"a": 2}"#),
            ])
    }

    @Test func deepNestingIsSkippedWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(
            read("{\"a\": 1}\n\(deep)\n{\"a\": \(deep)}\n{\"a\": 2}\n") == [
                Self.record(line: 1, #"{"a": 1}"#),
                .skipped(line: 2, column: 513, "nesting deeper than 512 levels"),
                .skipped(line: 3, column: 7 + 511, "nesting deeper than 512 levels"),
                Self.record(line: 4, #"{"a": 2}"#),
            ])
    }

    @Test func readFailureEndsReading() {
        let failing = InputError(kind: .readFailed, path: "-", reason: "input/output error")
        var reader = NDJSONReader(
            source: FailingInput(bytes("{\"a\": 1}\n{\"a\""), then: failing), bufferCapacity: 2)
        #expect(
            readEvents(&reader) == [
                Self.record(line: 1, #"{"a": 1}"#),
                .failure(
                    RecordSyntaxError(
                        line: 2, reason: "cannot read the input: input/output error",
                        isRecoverable: false,
                        inputError: failing)),
            ])
    }

    private static let everyFeature = bytes(
        "\u{FEFF}{\"name\": \"Ann \\u00e9\\uD83D\\uDE00\", \"n\": -1.5e3}\r\n"
            + "\n"
            + "{\"name\": \"B\u{F8}b\", \"tags\": [true, null, {\"x\": []}]}\n"
            + "42\n"
            + "{\"broken\": tru}\n"
            + "  {}  ")

    private static let everyFeatureEvents: [ReadEvent] = [
        .record(
            line: 1, section: nil,
            fields: [
                JSONMember(key: "name", value: .string("Ann \u{E9}\u{1F600}")),
                JSONMember(key: "n", value: .number("-1.5e3")),
            ]),
        .record(
            line: 3, section: nil,
            fields: [
                JSONMember(key: "name", value: .string("B\u{F8}b")),
                JSONMember(
                    key: "tags",
                    value: .array([
                        .bool(true), .null, .object([JSONMember(key: "x", value: .array([]))]),
                    ])),
            ]),
        .skipped(line: 4, column: 1, "expected an object, found a number"),
        .skipped(line: 5, column: 12, "invalid literal, expected 'true'"),
        .record(line: 6, section: nil, fields: []),
    ]

    @Test(arguments: Boundaries.chunkSizes, Boundaries.bufferCapacities)
    func recordsStraddlingBufferBoundaries(chunkSize: Int, bufferCapacity: Int) {
        #expect(
            read(Self.everyFeature, chunkSize: chunkSize, bufferCapacity: bufferCapacity)
                == Self.everyFeatureEvents)
    }
}
