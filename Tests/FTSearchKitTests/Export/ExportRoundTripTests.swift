@testable import FTSearchFormats
import Foundation
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// Export, import into an empty database, export again: the same bytes, in every format, on
/// `Fixtures/hostile.json` (Unicode, line breaks of every kind, quotes, tabs, backslashes, NUL,
/// nested and typed extra fields, fields missing from some records, given ids and timestamps).
@Suite struct ExportRoundTripTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/hostile.json").path

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func database(_ name: String) throws -> SearchIndex {
        let now = try #require(Timestamp(iso8601: "2026-01-01T12:00:00Z"))
        return try SearchIndex(path: directory.file(name), clock: { now })
    }

    private func importFile(_ path: String, into index: SearchIndex, kind: Kind? = nil) throws {
        try index.importRecords(
            from: try ImportSource.open([path]), options: ImportOptions(kind: kind))
    }

    private func exported(_ index: SearchIndex, _ kinds: Set<Kind>, as format: InputFormat)
        throws -> [UInt8]
    {
        let output = MemoryOutput()
        try index.export(kinds, as: format, to: output)
        return output.bytes
    }

    private static let cases: [(Set<Kind>, InputFormat)] = [
        (.all, .json), (.people, .json), (.animals, .json),
        (.people, .ndjson), (.animals, .ndjson), (.people, .csv), (.animals, .csv),
        (.people, .tsv), (.animals, .tsv),
    ]

    @Test(arguments: cases)
    func exportImportExportIsByteIdentical(kinds: Set<Kind>, format: InputFormat) throws {
        let original = try database("original.sqlite")
        try importFile(Self.fixture, into: original)
        let first = try exported(original, kinds, as: format)
        #expect(first.count > 200)

        let path = try directory.write(
            String(decoding: first, as: UTF8.self), to: "export.\(format.rawValue)")
        let copy = try database("copy.sqlite")
        try importFile(path, into: copy, kind: kinds == .all ? nil : kinds.inOrder[0])
        let second = try exported(copy, kinds, as: format)
        #expect(String(decoding: second, as: UTF8.self) == String(decoding: first, as: UTF8.self))
        #expect(second == first)
        #expect(try copy.check().isEmpty)

        // The records themselves survive: same ids, fields, timestamps and extra fields (CSV
        // and TSV put every record's extra fields in column order).
        for kind in kinds.inOrder {
            let before = try records(of: kind, in: original)
            let after = try records(of: kind, in: copy)
            #expect(after.count == before.count)
            for (old, new) in zip(before, after) {
                var old = old
                if format == .csv || format == .tsv {
                    old.extraFields = Self.inOrder(old.extraFields, of: new.extraFields)
                }
                #expect(new == old)
            }
        }
    }

    private func records(of kind: Kind, in index: SearchIndex) throws -> [Record] {
        switch kind {
        case .people: try index.findAll(Person.self).map(\.record)
        case .animals: try index.findAll(Animal.self).map(\.record)
        }
    }

    /// `members` in the order of the keys of `reference` (keys it lacks last).
    private static func inOrder(_ members: [JSONMember], of reference: [JSONMember]) -> [JSONMember]
    {
        let order = Dictionary(uniqueKeysWithValues: reference.enumerated().map { ($1.key, $0) })
        return members.sorted { (order[$0.key] ?? Int.max) < (order[$1.key] ?? Int.max) }
    }

    @Test func fixtureHasWhatTheRoundTripMustSurvive() throws {
        let index = try database("fixture.sqlite")
        try importFile(Self.fixture, into: index)
        let zoe = try #require(try index.find(Person.self, id: 7))
        #expect(zoe.createdAt == Timestamp(iso8601: "2020-02-29T23:59:59.123Z"))
        #expect(zoe[extra: "score"] == .number("1.50"))
        #expect(zoe[extra: "huge"] == .number("1e400"))
        #expect(
            zoe[extra: "notes"]
                == .string("line one\r\nline two\rline three\nend\\with\\backslashes"))
        let three = try #require(try index.find(Person.self, id: 3))
        #expect(three[extra: ""] == .string("empty key"))
        #expect(three[extra: "ends:json"] == .string("literal text"))
        #expect(three[extra: "notes"]?.scalarText?.contains("\u{0}") == true)
        let lion = try #require(try index.find(Animal.self, id: 2))
        #expect(lion[extra: "first_name"] != nil)
    }
}
