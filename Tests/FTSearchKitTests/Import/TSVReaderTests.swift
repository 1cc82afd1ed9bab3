@testable import FTSearchFormats
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

@Suite struct TSVReaderTests {
    private func read(_ text: String) -> [ReadEvent] {
        read(bytes(text))
    }

    private func read(_ input: [UInt8], chunkSize: Int = 1 << 16, bufferCapacity: Int = 1 << 16)
        -> [ReadEvent]
    {
        var reader = TSVReader(
            source: MemoryInput(input, chunkSize: chunkSize), bufferCapacity: bufferCapacity)
        return readEvents(&reader)
    }

    @Test func headerNamesTheFieldsOfEveryLine() {
        #expect(
            read("name\tage\nAnn\t31\nBob\t42\n") == [
                .strings(line: 2, ["name": "Ann", "age": "31"]),
                .strings(line: 3, ["name": "Bob", "age": "42"]),
            ])
    }

    @Test(arguments: [
        (#"tab\there"#, "tab\there"),
        (#"two\nlines"#, "two\nlines"),
        (#"cr\rhere"#, "cr\rhere"),
        (#"back\\slash"#, #"back\slash"#),
        (#"\\n is not a newline"#, #"\n is not a newline"#),
        (#"unknown \x stays"#, #"unknown \x stays"#),
        (#"ends with \"#, #"ends with \"#),
        (#"\\\t"#, "\\\t"),
        (#""quotes" are "data""#, #""quotes" are "data""#),
        ("commas, too", "commas, too"),
        ("caf\u{E9}", "caf\u{E9}"),
    ])
    func escapesAreDecoded(written: String, expected: String) {
        #expect(read("a\tb\n\(written)\tx\n") == [.strings(line: 2, ["a": expected, "b": "x"])])
    }

    @Test(arguments: [
        "a\tb\n1\t2\n3\t4\n",
        "a\tb\r\n1\t2\r\n3\t4\r\n",
        "a\tb\n1\t2\n3\t4",
        "a\tb\n1\t2\n3\t4\r",
        "\u{FEFF}a\tb\n1\t2\n3\t4\n",
    ])
    func lineEndingsAndByteOrderMark(input: String) {
        let events = read(input)
        #expect(
            events == [
                .strings(line: 2, ["a": "1", "b": "2"]),
                .strings(line: 3, ["a": "3", "b": "4"]),
            ])
    }

    @Test func blankLinesAreSkippedAndCounted() {
        #expect(
            read("\na\tb\n\n\r\n1\t2\n\n3\t4\n\n") == [
                .strings(line: 5, ["a": "1", "b": "2"]),
                .strings(line: 7, ["a": "3", "b": "4"]),
            ])
    }

    @Test func loneCarriageReturnIsData() {
        #expect(read("a\tb\nx\ry\t2\n") == [.strings(line: 2, ["a": "x\ry", "b": "2"])])
    }

    @Test func emptyFieldsAreEmptyStrings() {
        #expect(read("a\tb\tc\n\t\t\n") == [.strings(line: 2, ["a": "", "b": "", "c": ""])])
    }

    @Test(arguments: ["", "\u{FEFF}", "\n", "a\tb", "a\tb\n\n"])
    func inputWithoutDataLinesHasNoRecords(input: String) {
        #expect(read(input) == [])
    }

    @Test func wrongFieldCountIsSkipped() {
        #expect(
            read("a\tb\n1\t2\t3\nonly\n4\t5\n") == [
                .skipped(line: 2, "expected 2 fields, found 3"),
                .skipped(line: 3, "expected 2 fields, found 1"),
                .strings(line: 4, ["a": "4", "b": "5"]),
            ])
    }

    @Test func invalidUTF8IsSkippedWithItsColumn() {
        #expect(
            read(bytes("a\tb\n1\tx") + [0xED, 0xA0, 0x80] + bytes("\n2\ty\n")) == [
                .skipped(line: 2, column: 4, "invalid UTF-8"),
                .strings(line: 3, ["a": "2", "b": "y"]),
            ])
    }

    @Test(arguments: [
        (bytes("a\t\tc\n"), ReadEvent.fatal(line: 1, column: 3, "empty field name in field 2")),
        (
            bytes("a\tb\ta\n"),
            .fatal(line: 1, column: 5, "duplicate field name \"a\" in fields 1 and 3")
        ),
        (
            bytes("a\\\\\ta\\\n"),
            .fatal(line: 1, column: 5, #"duplicate field name "a\" in fields 1 and 2"#)
        ),
        (bytes("a\t") + [0xC0, 0x80] + bytes("\n"), .fatal(line: 1, column: 3, "invalid UTF-8")),
    ])
    func headerErrorsEndReading(input: [UInt8], expected: ReadEvent) {
        #expect(read(input) == [expected])
    }

    @Test func headerNamesAreDecoded() throws {
        var reader = TSVReader(source: MemoryInput("tab\\there\tb\n1\t2\n"))
        _ = try reader.nextRecord()
        #expect(reader.fieldNames == ["tab\there", "b"])
    }

    private static let everyFeature = bytes(
        "\u{FEFF}name\tnote\r\n"
            + "Ann\tsays \\\"hi\\\"\\n\\ttwice\r\n"
            + "\n"
            + "Bob\tK\u{F8}benhavn \u{1F600}\n"
            + "Cy\tx\ty\n"
            + "Di\t\\\\\r")

    private static let everyFeatureEvents: [ReadEvent] = [
        .strings(line: 2, ["name": "Ann", "note": "says \\\"hi\\\"\n\ttwice"]),
        .strings(line: 4, ["name": "Bob", "note": "K\u{F8}benhavn \u{1F600}"]),
        .skipped(line: 5, "expected 2 fields, found 3"),
        .strings(line: 6, ["name": "Di", "note": "\\"]),
    ]

    @Test(arguments: Boundaries.chunkSizes, Boundaries.bufferCapacities)
    func recordsStraddlingBufferBoundaries(chunkSize: Int, bufferCapacity: Int) {
        #expect(
            read(Self.everyFeature, chunkSize: chunkSize, bufferCapacity: bufferCapacity)
                == Self.everyFeatureEvents)
    }
}
