@testable import FTSearchFormats
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

@Suite struct JSONArrayReaderTests {
    private func read(_ text: String) -> [ReadEvent] {
        read(bytes(text))
    }

    private func read(_ input: [UInt8], chunkSize: Int = 1 << 16, bufferCapacity: Int = 1 << 16)
        -> [ReadEvent]
    {
        var reader = JSONArrayReader(
            source: MemoryInput(input, chunkSize: chunkSize), bufferCapacity: bufferCapacity)
        return readEvents(&reader)
    }

    private static func record(line: Int, section: String? = nil, _ json: String) -> ReadEvent {
        guard case .object(let members) = try? JSONParser.parseDocument(bytes(json)) else {
            preconditionFailure("not an object: \(json)")
        }
        return .record(line: line, section: section, fields: members)
    }

    // MARK: - Shapes

    @Test func arrayOfObjects() {
        #expect(
            read(
                "[\n  {\"name\": \"Ann\", \"age\": 31},\n  {\"name\": \"Bob\", \"tags\": [\"x\"]}\n]\n"
            ) == [
                Self.record(line: 2, #"{"name": "Ann", "age": 31}"#),
                Self.record(line: 3, #"{"name": "Bob", "tags": ["x"]}"#),
            ])
    }

    @Test func objectOfArraysNamesTheSections() {
        let input = """
            {
              "people": [
                {"name": "Ann"},
                {"name": "Bob"}
              ],
              "animals": [{"name": "Rex",
                           "kind": "dog"}],
              "empty": []
            }
            """
        #expect(
            read(input) == [
                Self.record(line: 3, section: "people", #"{"name": "Ann"}"#),
                Self.record(line: 4, section: "people", #"{"name": "Bob"}"#),
                Self.record(line: 6, section: "animals", #"{"name": "Rex", "kind": "dog"}"#),
            ])
    }

    @Test(arguments: ["[]", " [ ] ", "{}", "{\"people\": []}", "\u{FEFF}[]", "\n\t[\r\n]\r\n"])
    func documentsWithoutObjectsHaveNoRecords(input: String) {
        #expect(read(input) == [])
    }

    @Test func byteOrderMarkAndWhitespaceAroundEverything() {
        #expect(
            read("\u{FEFF} \r\n\t[ {\"a\" : 1} , {} ]\r\n \n") == [
                Self.record(line: 2, #"{"a": 1}"#),
                Self.record(line: 2, "{}"),
            ])
    }

    @Test func recordKeepsMemberOrderDuplicatesAndNestedValues() {
        #expect(
            read(#"[{"z": {"deep": [1, {"x": null}]}, "a": 1.50, "z": false}]"#) == [
                .record(
                    line: 1, section: nil,
                    fields: [
                        JSONMember(
                            key: "z",
                            value: .object([
                                JSONMember(
                                    key: "deep",
                                    value: .array([
                                        .number("1"), .object([JSONMember(key: "x", value: .null)]),
                                    ]))
                            ])),
                        JSONMember(key: "a", value: .number("1.50")),
                        JSONMember(key: "z", value: .bool(false)),
                    ])
            ])
    }

    // MARK: - Errors

    @Test func elementThatIsNotAnObjectIsSkipped() {
        #expect(
            read("[{\"a\": 1},\n 2, \"x\", [{}], null, true,\n {\"b\": 2}]") == [
                Self.record(line: 1, #"{"a": 1}"#),
                .skipped(line: 2, column: 2, "expected an object, found a number"),
                .skipped(line: 2, column: 5, "expected an object, found a string"),
                .skipped(line: 2, column: 10, "expected an object, found an array"),
                .skipped(line: 2, column: 16, "expected an object, found null"),
                .skipped(line: 2, column: 22, "expected an object, found a boolean"),
                Self.record(line: 3, #"{"b": 2}"#),
            ])
    }

    @Test func elementThatIsNotAnObjectInASectionIsSkipped() {
        #expect(
            read("{\"people\": [1, {\"a\": 1}]}") == [
                .skipped(line: 1, column: 13, "expected an object, found a number"),
                Self.record(line: 1, section: "people", #"{"a": 1}"#),
            ])
    }

    @Test(arguments: [
        (
            "[{\"a\": 1},\n {\"b\": }]",
            [ReadEvent.fatal(line: 2, column: 8, "expected a value, found '}'")]
        ),
        ("[{\"a\": 1},]", [.fatal(line: 1, column: 11, "expected a value, found ']'")]),
        (
            "[{\"a\": 1} {\"b\": 2}]",
            [.fatal(line: 1, column: 11, "expected ',' or ']' after an array element, found '{'")]
        ),
        (
            "[{\"a\": 1}",
            [
                .fatal(
                    line: 1, column: 10,
                    "expected ',' or ']' after an array element, found end of input")
            ]
        ),
        ("[{\"a\": 1},", [.fatal(line: 1, column: 11, "expected a value, found end of input")]),
        (
            "[{\"a\": 1",
            [
                .fatal(
                    line: 1, column: 9,
                    "expected ',' or '}' after an object member, found end of input")
            ]
        ),
        (
            "[{\"a\": 1}]\n x",
            [.fatal(line: 2, column: 2, "unexpected text after the top-level value: 'x'")]
        ),
        (
            "[{\"a\": 1}] []",
            [.fatal(line: 1, column: 12, "unexpected text after the top-level value: '['")]
        ),
        ("", [.fatal(line: 1, column: 1, "expected a JSON array or object, found end of input")]),
        ("  42", [.fatal(line: 1, column: 3, "expected a JSON array or object, found '4'")]),
        ("\"text\"", [.fatal(line: 1, column: 1, "expected a JSON array or object, found '\"'")]),
        (
            "{\"people\": {\"a\": 1}}",
            [.fatal(line: 1, column: 12, "expected an array of objects for \"people\", found '{'")]
        ),
        // One record without the array around it: read as a document of sections, and told
        // how to write it.
        (
            "{\"first_name\": \"Ann\"}",
            [
                .fatal(
                    line: 1, column: 16,
                    "expected an array of objects for \"first_name\", found '\"'; a file of one "
                        + "record is an array of it: [{...}]")
            ]
        ),
        ("{\"people\": [], 3}", [.fatal(line: 1, column: 16, "expected a string key, found '3'")]),
        (
            "{\"people\": [] \"x\": []}",
            [
                .fatal(
                    line: 1, column: 15, "expected ',' or '}' after an array of objects, found '\"'"
                )
            ]
        ),
        (
            "{\"people\" []}",
            [.fatal(line: 1, column: 11, "expected ':' after an object key, found '['")]
        ),
        ("{\"people\": [],}", [.fatal(line: 1, column: 15, "expected a string key, found '}'")]),
        (
            "[{\"a\": 1}, 01]",
            [.fatal(line: 1, column: 12, "leading zeros are not allowed in a number")]
        ),
    ])
    func malformedDocumentsEndReading(input: String, expected: [ReadEvent]) {
        let events = read(input)
        let records = events.filter { if case .record = $0 { true } else { false } }
        #expect(Array(events.dropFirst(records.count)) == expected)
        #expect(records.allSatisfy { $0 == Self.record(line: 1, #"{"a": 1}"#) })
    }

    @Test func nestingDeeperThanTheLimitEndsReading() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(
            read("[{\"a\": 1},\n {\"b\": \(deep)") == [
                Self.record(line: 1, #"{"a": 1}"#),
                .fatal(line: 2, column: 8 + 510, "nesting deeper than 512 levels"),
            ])
    }

    @Test func recordsArriveBeforeTheRestOfTheDocumentIsRead() {
        let failing = InputError(kind: .readFailed, path: "pipe", reason: "input/output error")
        let source = FailingInput(bytes("[{\"a\": 1},\n {\"b\": 2}, {\"c\""), then: failing)
        var reader = JSONArrayReader(source: source, bufferCapacity: 4)
        #expect(
            readEvents(&reader) == [
                Self.record(line: 1, #"{"a": 1}"#),
                Self.record(line: 2, #"{"b": 2}"#),
                .failure(
                    RecordSyntaxError(
                        line: 2, reason: "cannot read the input: input/output error",
                        isRecoverable: false,
                        inputError: failing)),
            ])
    }

    @Test func bytesConsumedFollowsTheRecords() throws {
        let input = bytes("[{\"a\": 1}, {\"b\": 2}]\n")
        var reader = JSONArrayReader(source: MemoryInput(input), bufferCapacity: 4)
        _ = try reader.nextRecord()
        #expect(reader.bytesConsumed == 9)
        while try reader.nextRecord() != nil {}
        #expect(reader.bytesConsumed == Int64(input.count))
    }

    // MARK: - Buffer boundaries

    private static let everyFeature = bytes(
        "\u{FEFF}{\r\n \"people\": [\n  {\"name\": \"Ann \\\"A\\\" \\u00e9\\uD83D\\uDE00\", \"age\": 31,"
            + " \"tags\": [\"a\", {\"b\": [true, false, null]}]},\n  -1.5e-3,\n"
            + "  {\"name\": \"B\u{F8}b\", \"age\": 0}\n ],\n \"animals\" : [ ],\n"
            + " \"more\": [{\"x\": \"\"}, {}]\n}\n\n")

    private static let everyFeatureEvents: [ReadEvent] = [
        .record(
            line: 3, section: "people",
            fields: [
                JSONMember(key: "name", value: .string("Ann \"A\" \u{E9}\u{1F600}")),
                JSONMember(key: "age", value: .number("31")),
                JSONMember(
                    key: "tags",
                    value: .array([
                        .string("a"),
                        .object([
                            JSONMember(key: "b", value: .array([.bool(true), .bool(false), .null]))
                        ]),
                    ])),
            ]),
        .skipped(line: 4, column: 3, "expected an object, found a number"),
        .record(
            line: 5, section: "people",
            fields: [
                JSONMember(key: "name", value: .string("B\u{F8}b")),
                JSONMember(key: "age", value: .number("0")),
            ]),
        .record(line: 8, section: "more", fields: [JSONMember(key: "x", value: .string(""))]),
        .record(line: 8, section: "more", fields: []),
    ]

    @Test(arguments: Boundaries.chunkSizes, Boundaries.bufferCapacities)
    func recordsStraddlingBufferBoundaries(chunkSize: Int, bufferCapacity: Int) {
        #expect(
            read(Self.everyFeature, chunkSize: chunkSize, bufferCapacity: bufferCapacity)
                == Self.everyFeatureEvents)
    }
}

/// A source that hands out some bytes, one at a time, then fails.
final class FailingInput: ByteSource {
    private var remaining: [UInt8]
    private let failure: InputError

    init(_ bytes: [UInt8], then failure: InputError) {
        remaining = bytes
        self.failure = failure
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard !remaining.isEmpty, buffer.count > 0 else { throw failure }
        buffer[0] = remaining.removeFirst()
        return 1
    }
}
