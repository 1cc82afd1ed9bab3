@testable import FTSearchFormats
import Foundation
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// Columns whose header ends in `:json` hold JSON values, in CSV and in TSV alike.
@Suite struct JSONColumnTests {
    private func read(_ text: String, format: InputFormat) -> [ReadEvent] {
        var reader = format.makeReader(for: MemoryInput(text, chunkSize: 3))
        return readEvents(&reader)
    }

    @Test(arguments: [InputFormat.csv, .tsv])
    func cellsAreReadAsJSONAndAnEmptyCellIsNoField(format: InputFormat) {
        let separator = format == .csv ? "," : "\t"
        let quoted = { (text: String) in
            format == .csv ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        let text =
            [
                ["name", "age:json", "tags:json", "note"],
                ["Ann", "42", quoted(#"["a","b"]"#), "x"],
                ["Bob", "", quoted(#""42""#), ""],
                ["Cy", "null", quoted(#"{"k":[1.50,true]}"#), "y"],
            ].map { $0.joined(separator: separator) }.joined(separator: "\n") + "\n"
        #expect(
            read(text, format: format) == [
                .record(
                    line: 2, section: nil,
                    fields: [
                        JSONMember(key: "name", value: .string("Ann")),
                        JSONMember(key: "age", value: .number("42")),
                        JSONMember(key: "tags", value: .array([.string("a"), .string("b")])),
                        JSONMember(key: "note", value: .string("x")),
                    ]),
                .record(
                    line: 3, section: nil,
                    fields: [
                        JSONMember(key: "name", value: .string("Bob")),
                        JSONMember(key: "tags", value: .string("42")),
                        JSONMember(key: "note", value: .string("")),
                    ]),
                .record(
                    line: 4, section: nil,
                    fields: [
                        JSONMember(key: "name", value: .string("Cy")),
                        JSONMember(key: "age", value: .null),
                        JSONMember(
                            key: "tags",
                            value: .object([
                                JSONMember(key: "k", value: .array([.number("1.50"), .bool(true)]))
                            ])),
                        JSONMember(key: "note", value: .string("y")),
                    ]),
            ])
    }

    @Test func invalidJSONSkipsTheRecordWithALocatedError() {
        #expect(
            read("name,age:json\nAnn,4x\nBob,5\n", format: .csv) == [
                .skipped(
                    line: 2, column: 5,
                    "field \"age\" holds invalid JSON: unexpected text after the JSON value: 'x'"),
                .record(
                    line: 3, section: nil,
                    fields: [
                        JSONMember(key: "name", value: .string("Bob")),
                        JSONMember(key: "age", value: .number("5")),
                    ]),
            ])
    }

    @Test func onlyOneSuffixIsTakenOffAndANameMayBeEmpty() {
        #expect(
            read("name,x:json:json,:json\nAnn,\"\"\"t\"\"\",1\n", format: .csv) == [
                .record(
                    line: 2, section: nil,
                    fields: [
                        JSONMember(key: "name", value: .string("Ann")),
                        JSONMember(key: "x:json", value: .string("t")),
                        JSONMember(key: "", value: .number("1")),
                    ])
            ])
    }

    @Test func aPlainAndAJSONColumnOfTheSameNameAreDuplicates() {
        #expect(
            read("a,a:json\n1,2\n", format: .csv) == [
                .fatal(line: 1, column: 3, "duplicate field name \"a\" in fields 1 and 2")
            ])
    }
}
