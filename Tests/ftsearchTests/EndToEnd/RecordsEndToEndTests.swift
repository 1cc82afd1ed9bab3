import Foundation
import Testing
import FTSearchTestSupport

/// `ftsearch add`, `update`, `delete` and `show`, through the binary.
@Suite struct RecordsEndToEndTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner()
    }

    private func ids(matching text: String) throws -> String {
        try ftsearch.output(["query", text, "--format", "tsv", "--no-history"])
            .split(separator: "\n").dropFirst().map { $0.split(separator: "\t")[1] }
            .joined(separator: " ")
    }

    @Test func addPrintsTheIdAndTheRecordIsFoundAtOnce() throws {
        #expect(
            try ftsearch.output([
                "add", "people", "--first-name", "Ann", "--last-name", "Lee", "--company", "Acme",
                "--set", "age=42", "--set", #"tags=["a","b"]"#, "--set", "nick=Annie",
                "--set", #"code="42""#,
            ]) == "1\n")
        #expect(try ids(matching: "lee") == "1")
        #expect(
            try ftsearch.output(["show", "people", "1", "--format", "json"])
                == #"{"kind":"people","id":1,"fields":{"first_name":"Ann","last_name":"Lee","company":"Acme","age":42,"tags":["a","b"],"nick":"Annie","code":"42"},"created_at":"2026-01-01T12:00:00.000Z","updated_at":"2026-01-01T12:00:00.000Z"}"#
                + "\n")
        #expect(
            try ftsearch.output([
                "add", "animals", "--name", "Lion", "--set", "species=Panthera leo", "--format",
                "json",
            ])
                == #"{"kind":"animals","id":1,"fields":{"name":"Lion","species":"Panthera leo"},"created_at":"2026-01-01T12:00:00.000Z","updated_at":"2026-01-01T12:00:00.000Z"}"#
                + "\n")
        #expect(try ftsearch.output(["check"]) == "ok\n")
    }

    @Test(arguments: [
        (
            ["add", "people", "--company", "Acme"], 65,
            "Error: a person needs a first or last name\n"
        ),
        (["add", "animals", "--name", " "], 65, "Error: an animal needs a name\n"),
        (
            ["add", "people", "--first-name", "Ann", "--set", "Surname=Lee"], 65,
            "Error: extra field \"Surname\" would be read as the last name; choose another name\n"
        ),
    ])
    func addRefusesWhatAnImportWouldRefuse(arguments: [String], code: Int32, error: String) throws {
        let outcome = try ftsearch.run(arguments)
        #expect(outcome.exitCode == code)
        #expect(outcome.standardError == error)
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test func fieldsOfTheOtherKindAndMalformedSetAreUsageErrors() throws {
        let name = try ftsearch.run(["add", "people", "--first-name", "Ann", "--name", "X"])
        #expect(name.exitCode == 64)
        #expect(
            name.standardError.hasPrefix(
                "Error: --name is not a field of people; people have --first-name, --last-name, --company\n"
            ))
        let set = try ftsearch.run(["add", "animals", "--name", "Rex", "--set", "age"])
        #expect(set.exitCode == 64)
        #expect(set.standardError.hasPrefix("Error: --set takes KEY=VALUE, not 'age'\n"))
    }

    @Test func updateChangesOnlyWhatIsGivenAndHonoursTheClock() throws {
        try ftsearch.run([
            "add", "people", "--first-name", "Ann", "--last-name", "Lee", "--company", "Acme",
            "--set", "age=41", "--set", "nick=Annie",
        ])
        let outcome = try ftsearch.run(
            [
                "update", "people", "1", "--company", "Initech", "--set", "age=42", "--unset",
                "nick",
            ], environment: ["FTSEARCH_NOW": "2026-02-01T08:00:00Z"])
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutput == "Updated person 1.\n")
        #expect(
            try ftsearch.output(["show", "people", "1"]) == """
                id          1
                first_name  Ann
                last_name   Lee
                company     Initech
                age         42
                created_at  2026-01-01T12:00:00.000Z
                updated_at  2026-02-01T08:00:00.000Z

                """)
        #expect(try ids(matching: "acme") == "")
        #expect(try ids(matching: "initech") == "1")
    }

    @Test func updateOfAnUnknownIdOrToNoNameChangesNothing() throws {
        try ftsearch.run(["add", "animals", "--name", "Rex"])
        let before = try ftsearch.snapshot()
        let unknown = try ftsearch.run(["update", "animals", "7", "--name", "Max"])
        #expect(unknown.exitCode == 65)
        #expect(unknown.standardError == "Error: no animal with id 7\n")
        let nameless = try ftsearch.run(["update", "animals", "1", "--name", ""])
        #expect(nameless.exitCode == 65)
        #expect(nameless.standardError == "Error: an animal needs a name\n")
        let nothing = try ftsearch.run(["update", "animals", "1"])
        #expect(nothing.exitCode == 64)
        #expect(try ftsearch.snapshot() == before)
    }

    @Test func deleteRemovesAllTheIdsOrNone() throws {
        for name in ["Ann", "Bob", "Cy"] {
            try ftsearch.run(["add", "people", "--first-name", name])
        }
        let before = try ftsearch.snapshot()
        let unknown = try ftsearch.run(["delete", "people", "1", "9", "2"])
        #expect(unknown.exitCode == 65)
        #expect(unknown.standardError == "Error: no person with id 9\n")
        #expect(try ftsearch.snapshot() == before)
        #expect(try ftsearch.output(["delete", "people", "1", "2"]) == "Deleted 2 people.\n")
        #expect(try ftsearch.output(["delete", "people", "3"]) == "Deleted 1 person.\n")
        #expect(try ids(matching: "") == "")
        #expect(try ftsearch.output(["check"]) == "ok\n")
    }

    @Test func showOfAnUnknownIdIsADataError() throws {
        try ftsearch.run(["add", "people", "--first-name", "Ann"])
        let outcome = try ftsearch.run(["show", "animals", "1"])
        #expect(outcome.exitCode == 65)
        #expect(outcome.standardError == "Error: no animal with id 1\n")
    }

    @Test func showOfAnImportedRecordHasItsExtraFields() throws {
        try ftsearch.run(["import", FTSearchRunner.fixture("people.json")])
        let json = try ftsearch.output(["show", "people", "2", "--format", "json"])
        #expect(json.contains(#""tags":["founder","berlin"]"#))
        #expect(json.contains(#""created_at":"2026-01-01T12:00:00.000Z""#))
    }
}
