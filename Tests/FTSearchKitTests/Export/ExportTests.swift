@testable import FTSearchFormats
import Foundation
import FTSearchSQLite
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

@Suite struct ExportTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
    }

    private func exported(_ kinds: Set<Kind>, as format: InputFormat) throws -> String {
        let output = MemoryOutput()
        try index.export(kinds, as: format, to: output)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    @Test func jsonHoldsTheSelectedKindsInIDOrderWithTimestamps() throws {
        try index.insert([Person(id: 9, firstName: "Zed"), Person(id: 2, firstName: "Ann")])
        #expect(
            try exported(.all, as: .json) == """
                {"people":[
                {"id":2,"first_name":"Ann","last_name":"","company":"","created_at":"2026-01-01T12:00:00.000Z","updated_at":"2026-01-01T12:00:00.000Z"},
                {"id":9,"first_name":"Zed","last_name":"","company":"","created_at":"2026-01-01T12:00:00.000Z","updated_at":"2026-01-01T12:00:00.000Z"}
                ],
                "animals":[]}

                """)
    }

    @Test func ndjsonIsFlatWithTextIDsForSearchEngines() throws {
        try index.insert(
            Animal(
                name: "Lion",
                extra: [
                    JSONMember(key: "species", value: .string("Panthera leo")),
                    JSONMember(key: "age", value: .number("4")),
                ]))
        let lines = try exported(.animals, as: .ndjson).split(separator: "\n")
        #expect(
            lines == [
                #"{"id":"1","name":"Lion","species":"Panthera leo","age":4,"created_at":"2026-01-01T12:00:00.000Z","updated_at":"2026-01-01T12:00:00.000Z"}"#
            ])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["id"] as? String == "1")
    }

    @Test func aRecordsDocumentMembersAreItsNDJSONLine() throws {
        let stored = try index.insert(
            Person(
                firstName: "Zoë", lastName: "Ødegaard",
                extra: [JSONMember(key: "tags", value: .array([.string("a")]))]))
        let line = try exported(.people, as: .ndjson).split(separator: "\n").first
        #expect(JSONValue.object(stored.record.documentMembers).jsonText == line.map(String.init))
        #expect(stored.record.documentMembers.first == JSONMember(key: "id", value: .string("1")))
    }

    @Test func csvColumnsAreTheUnionOfTheExtraFieldsTypedWhereTextIsNotEnough() throws {
        try index.insert([
            Person(
                firstName: "Ann",
                extra: [
                    JSONMember(key: "email", value: .string("ann@x.example")),
                    JSONMember(key: "age", value: .number("42")),
                ]),
            Person(
                firstName: "Bob",
                extra: [
                    JSONMember(key: "nick", value: .string("B, \"the\" one")),
                    JSONMember(key: "email", value: .string("")),
                ]),
        ])
        #expect(
            try exported(.people, as: .csv) == #"""
                id,first_name,last_name,company,email,age:json,nick:json,created_at,updated_at
                1,Ann,,,ann@x.example,42,,2026-01-01T12:00:00.000Z,2026-01-01T12:00:00.000Z
                2,Bob,,,,,"""B, \""the\"" one""",2026-01-01T12:00:00.000Z,2026-01-01T12:00:00.000Z

                """#)
    }

    @Test func tsvEscapesWhatItCannotHold() throws {
        try index.insert(Animal(name: "a\tb\nc\rd\\e"))
        #expect(
            try exported(.animals, as: .tsv) == """
                id\tname\tcreated_at\tupdated_at
                1\ta\\tb\\nc\\rd\\\\e\t2026-01-01T12:00:00.000Z\t2026-01-01T12:00:00.000Z

                """)
    }

    @Test(arguments: [InputFormat.ndjson, .csv, .tsv])
    func lineFormatsHoldOneKind(format: InputFormat) throws {
        #expect(throws: ExportError.oneKindPerFile(format)) {
            try index.export(.all, as: format, to: MemoryOutput())
        }
    }

    @Test func csvRefusesTwoFieldsOfTheSameName() throws {
        let reader = RecordList(fields: [
            [("name", .string("Rex")), ("x", .number("1")), ("x", .number("2"))]
        ])
        try index.importRecords(
            from: [ImportSource(name: "in.json", reader: reader)], options: ImportOptions())
        #expect(throws: ExportError.duplicateField(kind: .animals, id: 1, name: "x")) {
            try index.export(.animals, as: .csv, to: MemoryOutput())
        }
        #expect(try exported(.animals, as: .ndjson).contains(#""x":1,"x":2"#))
    }

    @Test func fileIsWrittenThroughATemporaryFileAndNotOverwrittenUnlessAsked() throws {
        try index.insert(Person(firstName: "Ann"))
        let path = directory.file("people.csv")
        let summary = try index.export(.people, as: .csv, toFile: path)
        #expect(summary.counts == [.people: 1])
        let first = try String(contentsOfFile: path, encoding: .utf8)
        #expect(first.hasPrefix("id,first_name"))

        try index.insert(Person(firstName: "Bob"))
        #expect {
            try index.export(.people, as: .csv, toFile: path)
        } throws: { error in
            guard case .unwritableOutput(let output) = error as? ExportError else { return false }
            return output.kind == .exists
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == first)

        try index.export(.people, as: .csv, toFile: path, overwrite: true)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("Bob"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == ["people.csv", "test.sqlite", "test.sqlite-shm", "test.sqlite-wal"])
    }

    @Test func failedExportLeavesNoFile() throws {
        try index.insert(Person(firstName: "Ann"))
        let path = directory.file("all.csv")
        #expect(throws: ExportError.oneKindPerFile(.csv)) {
            try index.export(.all, as: .csv, toFile: path)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(
            try !FileManager.default.contentsOfDirectory(atPath: directory.path)
                .contains { $0.hasSuffix(".tmp") })
    }

    @Test func fileInAMissingFolderCannotBeCreated() throws {
        #expect {
            try index.export(.people, as: .json, toFile: directory.file("missing/out.json"))
        } throws: { error in
            guard case .unwritableOutput(let output) = error as? ExportError else { return false }
            return output.kind == .cannotCreate
        }
    }

    @Test func exportOfAnEmptyKindImportsBackToNothing() throws {
        let csv = try exported(.people, as: .csv)
        #expect(csv == "id,first_name,last_name,company,created_at,updated_at\n")
        let summary = try index.importRecords(
            from: [ImportSource(name: "x.csv", reader: CSVReader(source: MemoryInput(csv)))],
            options: ImportOptions())
        #expect(summary == ImportSummary())
    }

    /// Mapped pages count in the process's memory: an export of every record reads them
    /// through the page cache instead (a 1M-people export took 135 MiB mapped, 11 MiB without),
    /// and the connection maps the file again afterwards.
    @Test func anExportReadsThroughThePageCacheNotTheFilesMapping() throws {
        try index.insert([Person(firstName: "Ann"), Person(firstName: "Bob")])
        final class MappingProbe: ByteSink {
            let database: Database
            var mappedBytes: [Int?] = []
            init(_ database: Database) { self.database = database }
            func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
                mappedBytes.append(try? database.fetchInt(sql: "PRAGMA mmap_size"))
            }
        }
        let probe = MappingProbe(index.database)
        try index.export(.people, as: .ndjson, to: probe)
        #expect(!probe.mappedBytes.isEmpty)
        #expect(probe.mappedBytes.allSatisfy { $0 == 0 })
        #expect(try index.database.fetchInt(sql: "PRAGMA mmap_size") == Database.searchMappedBytes)
    }
}
