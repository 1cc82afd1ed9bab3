import Foundation
import Testing
import FTSearchTestSupport

@Suite struct ImportEndToEndTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner()
    }

    private func fixture(_ name: String) -> String { FTSearchRunner.fixture(name) }

    /// Once the largest 64-bit id is taken, SQLite gives new rows random unused ids; they are
    /// indexed under those ids, so `check` stays clean and the new people are found.
    /// Ids are never given twice: once the largest has been given, a record without an id is
    /// refused, saying why (not that the disk is full), and one with an id is stored.
    @Test func peopleWithoutIDsAfterTheLargestIDAreRefused() throws {
        let largest = ftsearch.directory + "/largest.ndjson"
        let more = ftsearch.directory + "/more.ndjson"
        let named = ftsearch.directory + "/named.ndjson"
        try #"{"id": 9223372036854775807, "first_name": "Maxine"}"#.write(
            toFile: largest, atomically: false, encoding: .utf8)
        try #"{"first_name": "Newton"}\#n{"first_name": "Newell"}"#.write(
            toFile: more, atomically: false, encoding: .utf8)
        try #"{"id": 5, "first_name": "Newbie"}"#.write(
            toFile: named, atomically: false, encoding: .utf8)
        try ftsearch.output(["import", largest])
        let refused = try ftsearch.run(["import", more])
        #expect(refused.exitCode == 65)
        #expect(refused.standardError.contains("the largest, 9223372036854775807, has been given"))
        #expect(try ftsearch.resultNames(["new"]).isEmpty)
        try ftsearch.output(["import", named])
        #expect(try ftsearch.run(["check"]).exitCode == 0)
        #expect(try ftsearch.resultNames(["new"]) == ["Newbie"])
    }

    @Test func importsEveryFormatAndReportsASummary() throws {
        let outcome = try ftsearch.run([
            "import", fixture("people.json"), fixture("people.ndjson"), fixture("people.csv"),
            fixture("people.tsv"), fixture("animals.json"), fixture("animals.csv"),
            fixture("zoo.json"),
        ])
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.hasPrefix("Imported 21 people and 10 animals, in "))
        let stats = try ftsearch.output(["stats", "--format", "json"])
        #expect(stats.contains("\"counts\":{\"people\":21,\"animals\":10,\"history\":0}"))
        #expect(try ftsearch.output(["check"]) == "ok\n")
    }

    @Test func csvQuotedFieldsAndTSVEscapesArriveIntact() throws {
        try ftsearch.run(["import", "--quiet", fixture("people.csv"), fixture("people.tsv")])
        let csv = try ftsearch.output(["query", "annie hall", "--format", "json"])
        #expect(csv.contains("\"company\":\"Multi\\r\\nLine Films\""))
        let ikea = try ftsearch.output(["query", "annika", "--format", "tsv", "--kind", "people"])
        #expect(ikea.contains("\tIKEA, Älmhult\n"))
        let vic = try ftsearch.output(["query", "noel", "--format", "json"])
        #expect(vic.contains("\"company\":\"The \\\"Old\\\" Vic\""))
        let tsv = try ftsearch.output(["query", "olaf", "--format", "json"])
        #expect(tsv.contains("\"company\":\"Bäckerei\\tSchäfer\""))
        #expect(tsv.contains("\"note\":\"tab inside\""))
    }

    @Test func extraFieldsKeepTheirJSONTypes() throws {
        try ftsearch.run(["import", fixture("people.json")])
        let json = try ftsearch.output(["query", "anna müller", "--format", "json"])
        #expect(json.contains("\"tags\":[\"founder\",\"berlin\"]"))
        let zoe = try ftsearch.output(["query", "ødegaard", "--format", "json"])
        #expect(zoe.contains("\"address\":{\"city\":\"Oslo\"}"))
        let ann = try ftsearch.output(["query", "ann smith", "--format", "json"])
        #expect(ann.contains("\"age\":34"))
    }

    @Test func standardInputWithAnExplicitFormat() throws {
        let outcome = try ftsearch.run(
            ["import", "-", "--format", "ndjson", "--kind", "animals"],
            input: "{\"name\": \"Rex\"}\n{\"name\": \"Bella\"}\n")
        #expect(outcome.exitCode == 0)
        #expect(
            try ftsearch.output(["query", "", "--kind", "animals", "--format", "tsv"])
                == "kind\tid\tscore\tname\nanimals\t2\t0.0\tBella\nanimals\t1\t0.0\tRex\n")
    }

    @Test func reimportingIDsUpdatesAndReplaceEmpties() throws {
        try ftsearch.run(["import", fixture("people.json")])
        let update = try ftsearch.run(
            ["import", "-", "--format", "json"],
            input: "[{\"id\": 1, \"first_name\": \"Annabel\", \"last_name\": \"Smythe\"}]")
        #expect(update.standardError.hasPrefix("Imported 1 person (1 updated), in "))
        #expect(try ftsearch.output(["query", "smith", "--count"]) == "2\n")
        #expect(try ftsearch.output(["query", "smythe", "--count"]) == "1\n")
        try ftsearch.run(["import", "--replace", fixture("people.csv")])
        #expect(try ftsearch.output(["query", "", "--count", "--kind", "people"]) == "3\n")
        #expect(try ftsearch.output(["check"]) == "ok\n")
    }

    @Test(arguments: [
        ("broken/wrong-field-count.csv", "wrong-field-count.csv:3: expected 3 fields, found 4"),
        ("broken/invalid-utf8.csv", "invalid-utf8.csv:3:2: invalid UTF-8"),
        ("broken/unterminated-quote.csv", "unterminated-quote.csv:3:1: unterminated quoted field"),
        ("broken/duplicate-header.csv", "duplicate-header.csv:1:6: duplicate field name"),
        ("broken/truncated.json", "truncated.json:4:1: expected a value, found end of input"),
        ("broken/trailing-comma.json", "trailing-comma.json:3:46:"),
        (
            "broken/nested-name.json",
            "nested-name.json:3: field \"first_name\" must be text, found an array"
        ),
        ("broken/not-an-object.json", "not-an-object.json:3:3: expected an object, found a string"),
        ("broken/bad-id.json", "bad-id.json:3: id must be an integer, found \"seven\""),
        (
            "broken/missing-name.ndjson",
            "missing-name.ndjson:2: a person needs a first or last name"
        ),
        ("broken/bad-line.ndjson", "bad-line.ndjson:2:36: expected a value"),
    ])
    func badInputIsLocatedAndLeavesTheDatabaseUnchanged(file: String, message: String) throws {
        try ftsearch.run(["import", fixture("people.json"), fixture("animals.json")])
        try ftsearch.run(["query", "ann"])
        let before = try ftsearch.snapshot()
        let outcome = try ftsearch.run(["import", fixture("people.csv"), fixture(file)])
        #expect(outcome.exitCode == 65)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.hasPrefix("Error: " + fixture(file).dropLast(file.count)))
        #expect(outcome.standardError.contains(message))
        #expect(
            outcome.standardError.hasSuffix("Nothing was imported; the database is unchanged.\n"))
        #expect(try ftsearch.snapshot() == before)
        #expect(try ftsearch.output(["check"]) == "ok\n")
    }

    @Test func skipInvalidImportsTheRestAndReportsEachSkippedRecord() throws {
        let outcome = try ftsearch.run([
            "import", "--skip-invalid", fixture("broken/wrong-field-count.csv"),
            fixture("broken/missing-name.ndjson"), fixture("broken/bad-line.ndjson"),
        ])
        #expect(outcome.exitCode == 0)
        let lines = outcome.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasSuffix("wrong-field-count.csv:3: expected 3 fields, found 4 (skipped)"))
        #expect(
            lines[1].hasSuffix(
                "missing-name.ndjson:2: a person needs a first or last name (skipped)"))
        #expect(lines[2].hasPrefix("warning: ") && lines[2].contains("bad-line.ndjson:2:36:"))
        #expect(lines[3].hasPrefix("Imported 6 people, skipped 3, in "))
    }

    @Test func fatalErrorsStopEvenWithSkipInvalid() throws {
        let outcome = try ftsearch.run([
            "import", "--skip-invalid", fixture("people.csv"), fixture("broken/truncated.json"),
        ])
        #expect(outcome.exitCode == 65)
        // It was the first import: the database it was building is not there at all.
        #expect(try FileManager.default.contentsOfDirectory(atPath: ftsearch.directory).isEmpty)
    }

    @Test func missingFileIsExit66AndCreatesNothing() throws {
        let outcome = try ftsearch.run(["import", fixture("people.json"), "no-such-file.json"])
        #expect(outcome.exitCode == 66)
        #expect(outcome.standardError == "Error: no-such-file.json: no such file or directory\n")
        #expect(!FileManager.default.fileExists(atPath: ftsearch.databasePath))
    }

    @Test func directoryIsNotAnInputFile() throws {
        let outcome = try ftsearch.run(["import", ftsearch.directory])
        #expect(outcome.exitCode == 66)
        #expect(outcome.standardError.hasSuffix(": is a directory\n"))
    }

    @Test func unknownKindAsksForKind() throws {
        let outcome = try ftsearch.run(["import", fixture("broken/unknown-kind.csv")])
        #expect(outcome.exitCode == 64)
        #expect(outcome.standardError.contains("pass --kind people or --kind animals"))
        let withKind = try ftsearch.run([
            "import", "--kind", "animals", fixture("broken/unknown-kind.csv"),
        ])
        #expect(withKind.exitCode == 65)
        #expect(withKind.standardError.contains("unknown-kind.csv:2: an animal needs a name"))
    }

    @Test func formatIsSniffedWhenTheExtensionSaysNothing() throws {
        let path = ftsearch.directory + "/people.txt"
        try "first_name\tlast_name\nAnn\tSmith\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(try ftsearch.run(["import", path]).exitCode == 0)
        #expect(try ftsearch.output(["query", "smith", "--count"]) == "1\n")
    }

    @Test func fileThatIsNotADatabaseIsRefusedAndKept() throws {
        let path = ftsearch.directory + "/text.sqlite"
        try FileManager.default.copyItem(atPath: fixture("broken/not-a-database.db"), toPath: path)
        let viaOption = try ftsearch.run(["import", "--db", path, fixture("people.json")])
        #expect(viaOption.exitCode == 65)
        #expect(viaOption.standardError.contains("is not an ftsearch database"))
        let original = try String(
            contentsOfFile: fixture("broken/not-a-database.db"), encoding: .utf8)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
    }
}
