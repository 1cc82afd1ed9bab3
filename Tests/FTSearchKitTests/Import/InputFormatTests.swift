@testable import FTSearchFormats
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

@Suite struct InputFormatTests {
    @Test(arguments: [
        ("json", InputFormat.json), (".json", .json), ("JSON", .json),
        ("ndjson", .ndjson), ("jsonl", .ndjson), ("JsonL", .ndjson),
        ("csv", .csv), (".CSV", .csv), ("tsv", .tsv), ("Tsv", .tsv),
    ])
    func knownPathExtensions(pathExtension: String, expected: InputFormat) {
        #expect(InputFormat(pathExtension: pathExtension) == expected)
    }

    @Test(arguments: ["", "txt", "js", "jsonx", "c sv", "."])
    func unknownPathExtensions(pathExtension: String) {
        #expect(InputFormat(pathExtension: pathExtension) == nil)
    }

    @Test(arguments: [
        ("people.csv", InputFormat?.some(.csv)), ("/data/2024.animals.NDJSON", .ndjson),
        ("dir.json/people.tsv", .tsv), ("dir.csv/people", nil), ("-", nil), (".csv", nil),
        ("archive.csv.gz", nil),
    ])
    func formatOfPath(path: String, expected: InputFormat?) {
        #expect(InputFormat(path: path) == expected)
    }

    @Test(arguments: [
        ("[{\"a\": 1}]", InputFormat.json),
        ("\u{FEFF}  \n [", .json),
        ("{\n  \"people\": []\n}", .json),
        ("{\"a\": 1}\n{\"a\": 2}\n", .ndjson),
        ("\u{FEFF}\r\n{\"a\": 1}\r\n\r\n  {\"a\": 2}", .ndjson),
        ("{\"a\": 1}\n", .ndjson),
        ("{\"a\": 1}", .ndjson),
        ("{\"people\": [{\"a\": 1}], \"animals\": []}\n", .json),
        ("{}", .json),
        ("{\"a\": 1}\n[1]", .json),
        ("{\"a\": 1} x\n{\"a\": 2}", .json),
        ("{\"a\":\n1}\n{\"a\": 2}", .json),
        ("name,age\nAnn,31\n", .csv),
        ("name\tage\nAnn\t31\n", .tsv),
        ("\n\nname\tage\n", .tsv),
        ("name\tnote, with commas\tage\n", .tsv),
        ("name,note\twith a tab,age\n", .csv),
        ("name\n", .csv),
        ("", .csv),
        ("  \n", .csv),
    ])
    func sniffingTheWholeInput(text: String, expected: InputFormat) {
        #expect(InputFormat(sniffing: bytes(text), isWholeInput: true) == expected)
    }

    @Test func sniffingAPrefixDoesNotGuessFromAnUnfinishedLine() {
        #expect(InputFormat(sniffing: bytes("{\"a\": 1}"), isWholeInput: false) == .json)
        #expect(InputFormat(sniffing: bytes("{\"a\": 1}\n"), isWholeInput: false) == .json)
        #expect(InputFormat(sniffing: bytes("{\"a\": 1}\n{"), isWholeInput: false) == .ndjson)
    }

    // MARK: - Choosing a reader

    private func records(_ reader: inout any RecordReader) throws -> [[JSONMember]] {
        var records: [[JSONMember]] = []
        while let record = try reader.nextRecord() { records.append(record.fields) }
        return records
    }

    @Test func explicitFormatWinsOverPathAndContent() throws {
        let input = MemoryInput("a\tb\n1\t2\n")
        var (format, reader) = try InputFormat.makeReader(for: input, format: .csv, path: "x.tsv")
        #expect(format == .csv)
        #expect(try records(&reader) == [[JSONMember(key: "a\tb", value: .string("1\t2"))]])
    }

    @Test func pathExtensionWinsOverContent() throws {
        var (format, reader) = try InputFormat.makeReader(
            for: MemoryInput("a,b\n1,2\n"), path: "data.tsv")
        #expect(format == .tsv)
        #expect(try records(&reader) == [[JSONMember(key: "a,b", value: .string("1,2"))]])
    }

    @Test(arguments: [1, 3, 1 << 16])
    func sniffedInputLosesNoBytes(chunkSize: Int) throws {
        let text = "\u{FEFF}{\"n\": 1}\n{\"n\": 2}\n{\"n\": 3}\n"
        var (format, reader) = try InputFormat.makeReader(
            for: MemoryInput(text, chunkSize: chunkSize), path: "-")
        #expect(format == .ndjson)
        #expect(
            try records(&reader) == (1...3).map { [JSONMember(key: "n", value: .number("\($0)"))] })
    }

    @Test func sniffingReadsPastTheFirstChunkForALongFirstLine() throws {
        let long = String(repeating: "x", count: 200_000)
        let text = "{\"long\": \"\(long)\"}\n{\"long\": \"y\"}\n"
        var (format, reader) = try InputFormat.makeReader(for: MemoryInput(text, chunkSize: 1000))
        #expect(format == .ndjson)
        #expect(try records(&reader).map { $0.first?.value } == [.string(long), .string("y")])
    }

    @Test func sniffedCSVLargerThanTheSniffedPrefixIsReadWhole() throws {
        let rows = (1...20_000).map { "\($0),name \($0)" }
        let text = "id,name\n" + rows.joined(separator: "\n") + "\n"
        var (format, reader) = try InputFormat.makeReader(for: MemoryInput(text, chunkSize: 4096))
        #expect(format == .csv)
        let all = try records(&reader)
        #expect(all.count == 20_000)
        #expect(
            all.last == [
                JSONMember(key: "id", value: .string("20000")),
                JSONMember(key: "name", value: .string("name 20000")),
            ])
    }

    @Test func emptyInputIsSniffedAsCSVWithoutRecords() throws {
        var (format, reader) = try InputFormat.makeReader(for: MemoryInput([UInt8]()))
        #expect(format == .csv)
        #expect(try reader.nextRecord() == nil)
    }

    @Test func readFailureWhileSniffingIsAnInputError() {
        let failing = InputError(kind: .readFailed, path: "-", reason: "input/output error")
        #expect(throws: failing) {
            _ = try InputFormat.makeReader(for: FailingInput([], then: failing))
        }
    }

    @Test(arguments: InputFormat.allCases)
    func eachFormatMakesItsReader(format: InputFormat) {
        let reader = format.makeReader(for: MemoryInput(""))
        switch format {
        case .json: #expect(reader is JSONArrayReader)
        case .ndjson: #expect(reader is NDJSONReader)
        case .csv: #expect(reader is CSVReader)
        case .tsv: #expect(reader is TSVReader)
        }
    }
}
