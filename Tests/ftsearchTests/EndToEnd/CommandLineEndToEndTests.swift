import ArgumentParser
import FTSearchServeOptions
import Foundation
import Testing

@testable import FTSearchKit
@testable import ftsearch
import FTSearchSQLite
import FTSearchTestSupport

@Suite struct CommandLineEndToEndTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner()
    }

    /// Every command and subcommand, as typed after `ftsearch`, read from the command tree.
    static let commands = commandPaths(under: FTSearch.self)

    private static func commandPaths(under command: any ParsableCommand.Type, path: [String] = [])
        -> [[String]]
    {
        command.configuration.subcommands.flatMap { subcommand -> [[String]] in
            guard let name = subcommand.configuration.commandName else { return [] }
            return [path + [name]] + commandPaths(under: subcommand, path: path + [name])
        }
    }

    /// Whether the command at `path` declares the options every command shares (`--db`), read
    /// from its declaration: an `@OptionGroup` of ``GlobalOptions``.
    private static func declaresSharedOptions(_ path: [String]) -> Bool {
        var command: any ParsableCommand.Type = FTSearch.self
        for name in path {
            guard let subcommand = CommandLineConventions.subcommand(named: name, of: command)
            else { return false }
            command = subcommand
        }
        // `serve` declares `--db` in its own options, which the server executable shares.
        return Mirror(reflecting: command.init()).children.contains {
            $0.value is OptionGroup<GlobalOptions> || $0.value is OptionGroup<ServeOptions>
        }
    }

    @Test func theCommandTreeIsFound() {
        #expect(Self.commands.count >= 18)
        #expect(Self.commands.contains(["history", "clear"]))
        #expect(Self.commands.contains(["interactive"]))
        #expect(Self.commands.contains(["completions"]))
        #expect(Self.declaresSharedOptions(["query"]))
        #expect(!Self.declaresSharedOptions(["history"]))
        #expect(!Self.declaresSharedOptions(["completions"]))
    }

    @Test(arguments: commands)
    func everyCommandHasHelp(command: [String]) throws {
        let help = try ftsearch.output(command + ["--help"])
        #expect(help.hasPrefix("OVERVIEW: "))
        #expect(help.contains("USAGE: ftsearch \(command.joined(separator: " "))"))
        #expect(help.contains("--db <path>") == Self.declaresSharedOptions(command))
        #expect(help.contains("-h, --help"))
        #expect(try ftsearch.output(["help"] + command) == help)
        #expect(try ftsearch.output(command + ["-h"]) == help)
    }

    @Test func rootHelpListsTheSubcommands() throws {
        let help = try ftsearch.output(["--help"])
        for command in FTSearch.configuration.subcommands {
            let name = try #require(command.configuration.commandName)
            let aliases = command.configuration.aliases.map { ", " + $0 }.joined()
            #expect(help.contains("\n  \(name)\(aliases) "), "\(name)")
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
        #expect(command.standardError.hasPrefix("Error: Unknown command 'serch'\n"))
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
        #expect(object["schema_version"] as? Int == Schema.migrator.latestVersion)
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

    // MARK: Conventions git, cargo and ripgrep users expect

    @Test func sharedOptionsAreAcceptedBeforeTheCommandName() throws {
        let other = ftsearch.directory + "/team.sqlite"
        try ftsearch.run(["--db", other, "import", FTSearchRunner.fixture("people.json")])
        let expected = try ftsearch.output(["query", "--db", other, "ann", "--no-history"])
        #expect(expected.split(separator: "\n").count > 1)
        #expect(try ftsearch.output(["--db", other, "query", "ann", "--no-history"]) == expected)
        #expect(try ftsearch.output(["--db=\(other)", "query", "ann", "--no-history"]) == expected)
        // The default database (FTSEARCH_DB) was not touched: it does not exist.
        #expect(!FileManager.default.fileExists(atPath: ftsearch.databasePath))
        try ftsearch.run(["--db", other, "query", "zoe"])
        let history = try ftsearch.output(["--db", other, "history", "list", "--format", "tsv"])
        #expect(history.contains("\tzoe\t"))
        #expect(try ftsearch.output(["--db", other, "history", "--format", "tsv"]) == history)
        // A value that is itself a command name is the option's value.
        let odd = try ftsearch.run(["--db", "query", "query", "ann", "--no-history"])
        #expect(odd.exitCode == 66, "\(odd.standardError)")
        #expect(odd.standardError.contains("query"))
    }

    @Test func aMistypedCommandIsNamedWithTheNearestOne() throws {
        let outcome = try ftsearch.run(["quary", "ann"])
        #expect(outcome.exitCode == 64)
        #expect(outcome.standardOutput.isEmpty)
        let lines = outcome.standardError.split(separator: "\n")
        #expect(lines.first == "Error: Unknown command 'quary'. Did you mean 'query'?")
        #expect(lines.dropFirst().first == "Usage: ftsearch <subcommand>")
        #expect(lines.last?.contains("See 'ftsearch --help' for more information.") == true)
        let later = try ftsearch.run(["--db", "x.sqlite", "sugest", "an"])
        #expect(
            later.standardError.hasPrefix(
                "Error: Unknown command 'sugest'. Did you mean 'suggest'?\n"))
    }

    @Test func anUnknownCommandIsNamedBeforeItsOptions() throws {
        let outcome = try ftsearch.run(["frobnicate", "--db", "x"])
        #expect(outcome.exitCode == 64)
        #expect(outcome.standardError.hasPrefix("Error: Unknown command 'frobnicate'\n"))
        #expect(outcome.standardError.contains("Usage: ftsearch <subcommand>"))
        #expect(!FileManager.default.fileExists(atPath: ftsearch.directory + "/x"))
    }

    @Test func unquotedWordsAreOneSearch() throws {
        try ftsearch.run(["import", FTSearchRunner.fixture("people.json")])
        let quoted = try ftsearch.output(["query", "ann smith", "--no-history"])
        #expect(quoted.split(separator: "\n").count == 3, "\(quoted)")
        #expect(try ftsearch.output(["query", "ann", "smith", "--no-history"]) == quoted)
        #expect(try ftsearch.output(["query", "--no-history", "ann", "smith"]) == quoted)
        try ftsearch.run(["query", "ann", "smith"])
        let suggested = try ftsearch.output(["suggest", "ann", "sm"])
        #expect(suggested == "ann smith\n")
        #expect(try ftsearch.output(["suggest", "ann sm"]) == suggested)
        #expect(
            try ftsearch.output(["history", "--format", "tsv"]).contains("\tann smith\t1\t"))
    }
}
