@testable import FTSearchFormats
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

@Suite struct CSVReaderTests {
    private func read(_ text: String) -> [ReadEvent] {
        read(bytes(text))
    }

    private func read(_ input: [UInt8], chunkSize: Int = 1 << 16, bufferCapacity: Int = 1 << 16)
        -> [ReadEvent]
    {
        var reader = CSVReader(
            source: MemoryInput(input, chunkSize: chunkSize), bufferCapacity: bufferCapacity)
        return readEvents(&reader)
    }

    // MARK: - Records

    @Test func headerNamesTheFieldsOfEveryRow() {
        #expect(
            read("name,age\nAnn,31\nBob,42\n") == [
                .strings(line: 2, ["name": "Ann", "age": "31"]),
                .strings(line: 3, ["name": "Bob", "age": "42"]),
            ])
    }

    @Test func fieldNamesAreKnownAfterTheFirstRead() throws {
        var reader = CSVReader(source: MemoryInput("a,b\n1,2\n"))
        #expect(reader.fieldNames == nil)
        _ = try reader.nextRecord()
        #expect(reader.fieldNames == ["a", "b"])
    }

    @Test(arguments: [
        ("a,b\n\"x, y\",2\n", "x, y"),
        ("a,b\n\"say \"\"hi\"\"\",2\n", "say \"hi\""),
        ("a,b\n\"\",2\n", ""),
        ("a,b\n\"\"\"\",2\n", "\""),
        ("a,b\n\" padded \",2\n", " padded "),
        ("a,b\n plain spaces ,2\n", " plain spaces "),
        ("a,b\n\"caf\u{E9} \u{1F600}\",2\n", "caf\u{E9} \u{1F600}"),
    ])
    func quotedAndUnquotedValues(input: String, expected: String) {
        #expect(read(input) == [.strings(line: 2, ["a": expected, "b": "2"])])
    }

    @Test func quotedFieldWithEmbeddedLineFeedCountsItsLines() {
        #expect(
            read("a,b\n\"one\ntwo\nthree\",x\nlast,y\n") == [
                .strings(line: 2, ["a": "one\ntwo\nthree", "b": "x"]),
                .strings(line: 5, ["a": "last", "b": "y"]),
            ])
    }

    @Test func quotedFieldKeepsEmbeddedCRLF() {
        #expect(
            read("a,b\r\n\"one\r\ntwo\",x\r\nlast,y\r\n") == [
                .strings(line: 2, ["a": "one\r\ntwo", "b": "x"]),
                .strings(line: 4, ["a": "last", "b": "y"]),
            ])
    }

    @Test(arguments: [
        "a,b\n1,2\n3,4\n",
        "a,b\r\n1,2\r\n3,4\r\n",
        "a,b\r1,2\r3,4\r",
        "a,b\n1,2\r\n3,4",
        "\u{FEFF}a,b\n1,2\n3,4",
        "a,b\n\n1,2\r\n\r\n3,4\n\n",
    ])
    func lineEndingsByteOrderMarkAndBlankLines(input: String) {
        let records = read(input)
        #expect(records.count == 2)
        #expect(records.first.map { Self.fields(of: $0) } == ["a": "1", "b": "2"])
        #expect(records.last.map { Self.fields(of: $0) } == ["a": "3", "b": "4"])
    }

    @Test func blankLinesCountTowardsLineNumbers() {
        #expect(
            read("\n\na,b\n\n1,2\r\n\r\n\r3,4\n\n") == [
                .strings(line: 5, ["a": "1", "b": "2"]),
                .strings(line: 8, ["a": "3", "b": "4"]),
            ])
    }

    @Test(arguments: ["", "\u{FEFF}", "\n\n", "\r\n", "a,b", "a,b\n", "a,b\r\n\r\n"])
    func inputWithoutDataRowsHasNoRecords(input: String) {
        #expect(read(input) == [])
    }

    @Test func lastRowWithoutLineBreak() {
        #expect(read("a,b\n1,2") == [.strings(line: 2, ["a": "1", "b": "2"])])
        #expect(read("a,b\n1,\"2\"") == [.strings(line: 2, ["a": "1", "b": "2"])])
        #expect(read("a,b\n1,") == [.strings(line: 2, ["a": "1", "b": ""])])
    }

    @Test func emptyFieldsAreEmptyStrings() {
        #expect(read("a,b,c\n,,\n") == [.strings(line: 2, ["a": "", "b": "", "c": ""])])
    }

    @Test func singleColumnNeedsQuotesForAnEmptyValue() {
        #expect(
            read("a\nx\n\n\"\"\n") == [
                .strings(line: 2, ["a": "x"]),
                .strings(line: 4, ["a": ""]),
            ])
    }

    @Test func bytesConsumedReachesTheInputSize() throws {
        let input = bytes("a,b\n1,2\n3,4\n")
        var reader = CSVReader(source: MemoryInput(input, chunkSize: 3), bufferCapacity: 4)
        #expect(reader.bytesConsumed == 0)
        _ = try reader.nextRecord()
        #expect(reader.bytesConsumed == 8)
        while try reader.nextRecord() != nil {}
        #expect(reader.bytesConsumed == Int64(input.count))
    }

    // MARK: - Errors

    @Test func rowWithTooManyFieldsIsSkipped() {
        #expect(
            read("a,b,c\n1,2,3\n1,2,3,4\n5,6,7\n") == [
                .strings(line: 2, ["a": "1", "b": "2", "c": "3"]),
                .skipped(line: 3, "expected 3 fields, found 4"),
                .strings(line: 4, ["a": "5", "b": "6", "c": "7"]),
            ])
    }

    @Test func rowWithTooFewFieldsIsSkipped() {
        #expect(
            read("a,b\nonly\n\"multi\nline\"\n1,2\n") == [
                .skipped(line: 2, "expected 2 fields, found 1"),
                .skipped(line: 3, "expected 2 fields, found 1"),
                .strings(line: 5, ["a": "1", "b": "2"]),
            ])
        #expect(read("a\n1,2\n") == [.skipped(line: 2, "expected 1 field, found 2")])
    }

    @Test func invalidUTF8IsSkippedWithItsColumn() {
        let input =
            bytes("a,b\n1,ok\n2,b") + [0xC3, 0x28] + bytes("d\n3,\"x\ny") + [0xFF]
            + bytes("\"\n4,z\n")
        #expect(
            read(input) == [
                .strings(line: 2, ["a": "1", "b": "ok"]),
                .skipped(line: 3, column: 4, "invalid UTF-8"),
                .skipped(line: 4, "invalid UTF-8"),
                .strings(line: 6, ["a": "4", "b": "z"]),
            ])
    }

    @Test func quoteInsideUnquotedFieldIsText() {
        #expect(
            read("a,b\n1,ab\"c\n5'11\",x\"\"\n") == [
                .strings(line: 2, ["a": "1", "b": "ab\"c"]),
                .strings(line: 3, ["a": "5'11\"", "b": "x\"\""]),
            ])
    }

    @Test func textAfterClosingQuoteIsSkipped() {
        #expect(
            read("a,b\n\"x\"y,1\n\"two\nlines\" z,2\n3,4\n") == [
                .skipped(line: 2, column: 4, "text after a closing quote"),
                .skipped(line: 3, "text after a closing quote"),
                .strings(line: 5, ["a": "3", "b": "4"]),
            ])
    }

    @Test func unterminatedQuoteEndsReading() {
        #expect(
            read("a,b\n1,2\n3,\"open\nstill open\n") == [
                .strings(line: 2, ["a": "1", "b": "2"]),
                .fatal(line: 3, column: 3, "unterminated quoted field"),
            ])
    }

    @Test(arguments: [
        (
            bytes("a,,c\n1,2,3\n"),
            ReadEvent.fatal(line: 1, column: 3, "empty field name in field 2")
        ),
        (
            bytes("id,name,id\n1,2,3\n"),
            .fatal(line: 1, column: 9, "duplicate field name \"id\" in fields 1 and 3")
        ),
        (
            bytes("\n\"x\",\"x\"\n1,2\n"),
            .fatal(line: 2, column: 6, "duplicate field name \"x\" in fields 1 and 2")
        ),
        (bytes("a,\"b\"c\n1,2\n"), .fatal(line: 1, column: 6, "text after a closing quote")),
        (bytes("a,b") + [0xFE] + bytes("\n1,2\n"), .fatal(line: 1, column: 4, "invalid UTF-8")),
    ])
    func headerErrorsEndReading(input: [UInt8], expected: ReadEvent) {
        #expect(read(input) == [expected])
    }

    @Test func readFailureComesAfterEveryRowReadBeforeIt() {
        let failing = InputError(kind: .readFailed, path: "data.csv", reason: "input/output error")
        var reader = CSVReader(
            source: FailingInput(bytes("a,b\n1,2\n3,\"4"), then: failing), bufferCapacity: 4)
        #expect(
            readEvents(&reader) == [
                .strings(line: 2, ["a": "1", "b": "2"]),
                .failure(
                    RecordSyntaxError(
                        line: 3, reason: "cannot read the input: input/output error",
                        isRecoverable: false, inputError: failing)),
            ])
    }

    // MARK: - Buffer boundaries

    private static let everyFeature = bytes(
        "\u{FEFF}name,\"note\",city\r\n"
            + "Ann,\"says \"\"hi\"\", twice\",Oslo\r\n"
            + "\r\n"
            + "Bob,\"line one\nline two\r\nline three\",\"K\u{F8}benhavn\"\n"
            + "Cy,bad\"quote,Rome\n"
            + "Di,x,y,extra\r"
            + "Ed,\u{1F600},\r"
            + "Flo,\"\",\"\"\"\"")

    private static let everyFeatureEvents: [ReadEvent] = [
        .strings(line: 2, ["name": "Ann", "note": "says \"hi\", twice", "city": "Oslo"]),
        .strings(
            line: 4,
            ["name": "Bob", "note": "line one\nline two\r\nline three", "city": "K\u{F8}benhavn"]),
        .strings(line: 7, ["name": "Cy", "note": "bad\"quote", "city": "Rome"]),
        .skipped(line: 8, "expected 3 fields, found 4"),
        .strings(line: 9, ["name": "Ed", "note": "\u{1F600}", "city": ""]),
        .strings(line: 10, ["name": "Flo", "note": "", "city": "\""]),
    ]

    @Test(arguments: Boundaries.chunkSizes, Boundaries.bufferCapacities)
    func recordsStraddlingBufferBoundaries(chunkSize: Int, bufferCapacity: Int) {
        #expect(
            read(Self.everyFeature, chunkSize: chunkSize, bufferCapacity: bufferCapacity)
                == Self.everyFeatureEvents)
    }

    @Test(arguments: [1, 3, 1 << 16])
    func unterminatedQuoteAcrossBoundaries(chunkSize: Int) {
        #expect(
            read(bytes("a\n\"x\n\"\"\n"), chunkSize: chunkSize, bufferCapacity: 2) == [
                .fatal(line: 2, column: 1, "unterminated quoted field")
            ])
    }

    private static func fields(of event: ReadEvent) -> [String: String]? {
        guard case .record(_, _, let fields) = event else { return nil }
        return Dictionary(
            fields.map { ($0.key, $0.value.scalarText ?? "") }, uniquingKeysWith: { $1 })
    }
}
