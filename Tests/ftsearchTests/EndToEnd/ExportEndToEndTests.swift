import Foundation
import Testing
import FTSearchTestSupport

/// `ftsearch export`, and the round trip through the binary: export, import into an empty
/// database, export again gives the same bytes.
@Suite struct ExportEndToEndTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner()
        try ftsearch.run(["import", FTSearchRunner.fixture("hostile.json")])
    }

    private static let cases: [(String, String)] = [
        ("all", "json"), ("people", "json"), ("people", "ndjson"), ("animals", "ndjson"),
        ("people", "csv"), ("animals", "csv"), ("people", "tsv"), ("animals", "tsv"),
    ]

    @Test(arguments: cases)
    func roundTripIsByteIdentical(kind: String, format: String) throws {
        let first = "\(ftsearch.directory)/first.\(format)"
        let outcome = try ftsearch.run([
            "export", "--kind", kind, "--format", format, "--output", first,
        ])
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutput.isEmpty)
        let copy = ["FTSEARCH_DB": "\(ftsearch.directory)/copy.sqlite"]
        let kindOption = kind == "all" ? [] : ["--kind", kind]
        let imported = try ftsearch.run(["import", first] + kindOption, environment: copy)
        #expect(imported.exitCode == 0, "\(imported.standardError)")
        let second = try ftsearch.run(
            ["export", "--kind", kind, "--format", format], environment: copy)
        #expect(second.exitCode == 0)
        let firstBytes = try Data(contentsOf: URL(fileURLWithPath: first))
        #expect(Data(second.standardOutput.utf8) == firstBytes)
        #expect(try ftsearch.run(["check"], environment: copy).standardOutput == "ok\n")
    }

    @Test func ndjsonLinesAreFlatObjectsWithATextID() throws {
        // Fixtures/people.json: hostile.json has 1e400, which JSONSerialization cannot hold.
        let other = ["FTSEARCH_DB": "\(ftsearch.directory)/people.sqlite"]
        try ftsearch.run(["import", FTSearchRunner.fixture("people.json")], environment: other)
        let outcome = try ftsearch.run(
            ["export", "--kind", "people", "--format", "ndjson"], environment: other)
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.count == 12)
        for line in lines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try #require(object["id"] as? String)
            #expect(Int(id) != nil)
            #expect(object["first_name"] is String)
            #expect(object["created_at"] is String)
        }
    }

    @Test func formatComesFromTheOutputExtension() throws {
        let path = "\(ftsearch.directory)/animals.tsv"
        let outcome = try ftsearch.run(["export", "--kind", "animals", "-o", path])
        #expect(outcome.standardError == "Exported 3 animals to \(path).\n")
        let file = try String(contentsOfFile: path, encoding: .utf8)
        #expect(file.hasPrefix("id\tname\t"))
        #expect(
            try ftsearch.output(["export", "--kind", "animals", "-o", "-", "--format", "tsv"])
                == file)
    }

    @Test func existingFileIsKeptWithoutForce() throws {
        let path = "\(ftsearch.directory)/out.json"
        try "precious\n".write(toFile: path, atomically: true, encoding: .utf8)
        let refused = try ftsearch.run(["export", "--output", path])
        #expect(refused.exitCode == 73)
        #expect(
            refused.standardError == "Error: \(path): already exists (overwrite it with --force)\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
        let forced = try ftsearch.run(["export", "--output", path, "--force"])
        #expect(forced.exitCode == 0)
        #expect(forced.standardError == "Exported 4 people and 3 animals to \(path).\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix(#"{"people":["#))
        let names = try FileManager.default.contentsOfDirectory(atPath: ftsearch.directory)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
    }

    @Test func oneKindFormatsNeedAKind() throws {
        let outcome = try ftsearch.run(["export", "--format", "ndjson"])
        #expect(outcome.exitCode == 64)
        #expect(
            outcome.standardError.hasPrefix(
                "Error: ndjson holds one kind of record: add --kind people or --kind animals\n"))
    }

    @Test func exportOfAMissingDatabaseIsNoInput() throws {
        let outcome = try ftsearch.run(
            ["export"], environment: ["FTSEARCH_DB": "\(ftsearch.directory)/none.sqlite"])
        #expect(outcome.exitCode == 66)
    }
}
