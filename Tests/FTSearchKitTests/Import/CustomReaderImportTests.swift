import FTSearchKit
import FTSearchTestSupport
import Testing

/// An import streams records from a reader of the caller's own (the public entry the server's
/// Meilisearch document route uses), in front of one of the format readers.
@Suite struct CustomReaderImportTests {
    /// Passes on the records with an `email` field, counting those it leaves out.
    struct OnlyWithEmail: RecordReader {
        var base: any RecordReader
        var leftOut = 0
        var bytesConsumed: Int64 { base.bytesConsumed }

        mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord? {
            while let record = try base.nextRecord() {
                if record.fields.contains(where: { $0.key == "email" }) { return record }
                leftOut += 1
            }
            return nil
        }
    }

    @Test func aReaderInFrontOfACSVReaderDecidesWhatIsImported() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex(path: directory.path + "/people.db")
        let csv = MemoryInput(
            "first_name,last_name,email\nAnn,Lee,ann@example.com\nBob,Ray,\nCy,Sun,cy@example.com\n"
        )
        let (format, base) = try InputFormat.makeReader(for: csv, path: "people.csv")
        #expect(format == .csv)
        // CSV gives every column; an empty email is still a field, so drop empty ones first.
        struct NonEmpty: RecordReader {
            var base: any RecordReader
            var bytesConsumed: Int64 { base.bytesConsumed }
            mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord? {
                guard var record = try base.nextRecord() else { return nil }
                record.fields.removeAll { $0.value == .string("") }
                return record
            }
        }
        let summary = try index.importRecords(
            from: [
                ImportSource(name: "people.csv", reader: OnlyWithEmail(base: NonEmpty(base: base)))
            ],
            options: ImportOptions())
        #expect(summary.inserted[.people] == 2)
        let names = try index.search(SearchRequest(text: "", kinds: .people, limit: 10)).hits
            .map { hit -> String in
                guard case .person(let person) = hit.record else { return "" }
                return person.firstName
            }
        #expect(Set(names) == ["Ann", "Cy"])
    }

    @Test func aSyntaxErrorFromTheReaderIsLocatedInTheSourceItNames() throws {
        struct Failing: RecordReader {
            var bytesConsumed: Int64 { 0 }
            mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord? {
                throw RecordSyntaxError(line: 7, reason: "not a document", isRecoverable: false)
            }
        }
        let directory = try TemporaryDirectory()
        let index = try SearchIndex(path: directory.path + "/people.db")
        #expect {
            try index.importRecords(
                from: [ImportSource(name: "body", reader: Failing())], options: ImportOptions())
        } throws: { error in
            guard case ImportError.invalidRecord(let problem) = error else { return false }
            return problem.path == "body" && problem.line == 7 && problem.reason == "not a document"
        }
    }
}
