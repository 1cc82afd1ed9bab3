@testable import FTSearchFormats
import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit

/// A reader over records held in memory, for tests of what happens after reading.
struct RecordList: RecordReader {
    private var records: [Result<SourceRecord, RecordSyntaxError>]
    private var position = 0

    init(_ records: [Result<SourceRecord, RecordSyntaxError>]) {
        self.records = records
    }

    /// Records with these fields, on lines 2, 3, ...
    init(fields: [[(String, JSONValue)]], section: String? = nil) {
        records = fields.enumerated().map { offset, members in
            .success(
                SourceRecord(
                    line: offset + 2, section: section,
                    fields: members.map { JSONMember(key: $0.0, value: $0.1) }))
        }
    }

    mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord? {
        guard position < records.count else { return nil }
        defer { position += 1 }
        return try records[position].get()
    }

    var bytesConsumed: Int64 { Int64(position) }
}

extension SearchIndex {
    /// Opens the test database in `directory` (created on first use) with the clock stopped at
    /// `now`; opening it again at another `now` is how tests move time on.
    static func temporary(in directory: TemporaryDirectory, now: String = "2026-01-01T12:00:00Z")
        throws -> SearchIndex
    {
        let time = try #require(Timestamp(iso8601: now))
        return try SearchIndex(path: directory.file("test.sqlite"), clock: { time })
    }

    /// Imports people given as (first, last, company) triples, in one import.
    @discardableResult
    func importPeople(
        _ people: [(String, String, String)], options: ImportOptions = ImportOptions()
    ) throws
        -> ImportSummary
    {
        let reader = RecordList(
            fields: people.map {
                [
                    ("first_name", .string($0.0)), ("last_name", .string($0.1)),
                    ("company", .string($0.2)),
                ]
            })
        return try importRecords(
            from: [ImportSource(name: "people.json", reader: reader)], options: options)
    }

    /// Imports animals with these names.
    @discardableResult
    func importAnimals(_ names: [String]) throws -> ImportSummary {
        let reader = RecordList(fields: names.map { [("name", .string($0))] })
        return try importRecords(
            from: [ImportSource(name: "animals.json", reader: reader)], options: ImportOptions())
    }

    /// The display names of the results for `text`, best first.
    func names(for text: String, kinds: Set<Kind> = .all, limit: Int? = 20) throws -> [String] {
        try search(SearchRequest(text: text, kinds: kinds, limit: limit)).hits.map(
            \.record.displayName)
    }
}
