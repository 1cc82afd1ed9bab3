import Foundation
import Testing

@Suite struct CommandLineEndToEndTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner()
    }

    static let commands = [
        ["import"], ["query"], ["suggest"], ["history"], ["history", "list"],
        ["history", "delete"],
        ["history", "clear"], ["stats"], ["check"], ["optimize"], ["rebuild"],
    ]

    @Test(arguments: commands)
    func everyCommandHasHelp(command: [String]) throws {
        let help = try ftsearch.output(command + ["--help"])
        #expect(help.hasPrefix("OVERVIEW: "))
        #expect(help.contains("USAGE: ftsearch \(command.joined(separator: " "))"))
        #expect(help.contains("--db <path>") == (command != ["history"]))
        #expect(help.contains("-h, --help"))
        #expect(try ftsearch.output(["help"] + command) == help)
        #expect(try ftsearch.output(command + ["-h"]) == help)
    }

    @Test func rootHelpListsTheSubcommands() throws {
        let help = try ftsearch.output(["--help"])
        for name in [
            "import", "query", "suggest", "history", "stats", "check", "optimize", "rebuild",
        ] {
            #expect(help.contains("\n  \(name) "))
        }
        #expect(try ftsearch.output([]) == help)
    }

    @Test func optionsShowTheirDefaultsAndValues() throws {
        let help = try ftsearch.output(["query", "--help"])
        #expect(help.contains("(default: 20)"))
        let unwrapped = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            unwrapped.contains(
                "--kind <kind> Which records to search. (values: people, animals, all; default: all)"
            ))
    }

    @Test func versionIsPrinted() throws {
        #expect(try ftsearch.output(["--version"]) == "0.1.0\n")
    }

    @Test func unknownOptionSuggestsTheNearestOne() throws {
        let outcome = try ftsearch.run(["query", "ann", "--limt", "5"])
        #expect(outcome.exitCode == 64)
        #expect(outcome.standardOutput.isEmpty)
        let lines = outcome.standardError.split(separator: "\n")
        #expect(lines.first == "Error: Unknown option '--limt'. Did you mean '--limit'?")
        #expect(lines.contains { $0.hasPrefix("Usage: ftsearch query") })
        #expect(lines.last?.contains("See 'ftsearch query --help' for more information.") == true)
    }

    @Test func unknownCommandAndBadValuesAreUsageErrors() throws {
        let command = try ftsearch.run(["serch", "ann"])
        #expect(command.exitCode == 64)
        #expect(command.standardError.contains("search") || command.standardError.contains("serch"))
        let kind = try ftsearch.run(["query", "ann", "--kind", "cats"])
        #expect(kind.exitCode == 64)
        #expect(kind.standardError.contains("'people', 'animals' or 'all'"))
        let number = try ftsearch.run(["query", "ann", "--limit", "many"])
        #expect(number.exitCode == 64)
        let missing = try ftsearch.run(["import"])
        #expect(missing.exitCode == 64)
        #expect(missing.standardError.contains("Usage: ftsearch import"))
    }

    @Test func newerSchemaIsRefusedAndLeftAlone() throws {
        try ftsearch.run(["import", FTSearchRunner.fixture("animals.json")])
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", ftsearch.databasePath, "PRAGMA user_version = 99"]
        try sqlite.run()
        sqlite.waitUntilExit()
        try #require(sqlite.terminationStatus == 0, "needs the sqlite3 command")
        let outcome = try ftsearch.run(["query", "rex"])
        #expect(outcome.exitCode == 65)
        #expect(outcome.standardError.contains("schema version 99"))
    }

    @Test func statsAsJSON() throws {
        try ftsearch.run(["import", FTSearchRunner.fixture("animals.json")])
        let json = try ftsearch.output(["stats", "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["database"] as? String == ftsearch.databasePath)
        #expect(object["schema_version"] as? Int == 8)
        #expect((object["sqlite_version"] as? String)?.hasPrefix("3.") == true)
        #expect((object["size_bytes"] as? Int ?? 0) > 0)
        #expect(object["counts"] as? [String: Int] == ["people": 0, "animals": 5, "history": 0])
    }

    @Test func maintenanceCommands() throws {
        try ftsearch.run(["import", FTSearchRunner.fixture("people.json")])
        #expect(try ftsearch.output(["check"]) == "ok\n")
        #expect(try ftsearch.output(["optimize"]).hasPrefix("size before: "))
        #expect(try ftsearch.output(["rebuild"]) == "ok\n")
        #expect(try ftsearch.output(["query", "zoe", "--count"]) == "2\n")
    }

    @Test func databaseInAFolderThatCannotBeCreated() throws {
        let blocker = ftsearch.directory + "/file"
        try "x".write(toFile: blocker, atomically: true, encoding: .utf8)
        let outcome = try ftsearch.run([
            "import", "--db", blocker + "/sub/db.sqlite", FTSearchRunner.fixture("animals.json"),
        ])
        #expect(outcome.exitCode == 73 || outcome.exitCode == 74)
        #expect(outcome.standardError.hasPrefix("Error: cannot create"))
    }
}
