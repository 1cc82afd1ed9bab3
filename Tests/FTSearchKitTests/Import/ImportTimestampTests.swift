@testable import FTSearchFormats
import Testing
import FTSearchTestSupport

@testable import FTSearchEngine
@testable import FTSearchKit

/// An import keeps the `created_at` and `updated_at` its input gives.
@Suite struct ImportTimestampTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
    }

    private func run(_ fields: [[(String, JSONValue)]]) throws {
        try index.importRecords(
            from: [ImportSource(name: "in.json", reader: RecordList(fields: fields))],
            options: ImportOptions())
    }

    @Test func givenTimestampsAreKeptAndMissingOnesAreTheImportTime() throws {
        try run([
            [
                ("id", .number("1")), ("name", .string("Rex")),
                ("Created At", .string("2020-05-01T10:00:00+02:00")),
                ("updated_at", .string("2021-01-01")),
            ],
            [("id", .number("2")), ("name", .string("Max")), ("created_at", .null)],
        ])
        let rex = try #require(try index.find(Animal.self, id: 1))
        #expect(rex.createdAt?.description == "2020-05-01T08:00:00.000Z")
        #expect(rex.updatedAt?.description == "2021-01-01T00:00:00.000Z")
        #expect(rex.extra.isEmpty)
        let max = try #require(try index.find(Animal.self, id: 2))
        #expect(max.createdAt?.description == "2026-01-01T12:00:00.000Z")
    }

    @Test func replacingARecordKeepsItsCreationTimeUnlessTheInputGivesOne() throws {
        try run([[("id", .number("1")), ("name", .string("Rex"))]])
        let later = try SearchIndex.temporary(in: directory, now: "2026-06-01T00:00:00Z")
        try later.importRecords(
            from: [
                ImportSource(
                    path: "in.json",
                    reader: RecordList(fields: [
                        [("id", .number("1")), ("name", .string("Max"))],
                        [
                            ("id", .number("1")), ("name", .string("Max")),
                            ("created_at", .string("2000-01-01T00:00:00Z")),
                        ],
                    ]))
            ], options: ImportOptions())
        let max = try #require(try later.find(Animal.self, id: 1))
        #expect(max.createdAt?.description == "2000-01-01T00:00:00.000Z")
        #expect(max.updatedAt?.description == "2026-06-01T00:00:00.000Z")
    }

    @Test(arguments: [JSONValue.string("yesterday"), .number("1700000000"), .bool(true)])
    func aTimestampThatIsNotISO8601IsAnInvalidRecord(value: JSONValue) throws {
        #expect(
            throws: ImportError.invalidRecord(
                RecordProblem(
                    path: "in.json", line: 2,
                    reason: "updated_at must be an ISO 8601 time such as 2026-01-01T12:00:00Z, "
                        + "found \(value.jsonText)"))
        ) {
            try run([[("name", .string("Rex")), ("updated_at", value)]])
        }
    }
}
