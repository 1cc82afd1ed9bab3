import ArgumentParser
import FTSearchTestSupport
import Foundation
import Testing

@testable import ftsearch

@Suite struct SearchTextCompletionTests {
    @Test(arguments: [
        ("anna", "anna"), ("\"anna m", "anna m"), ("'anna m", "anna m"), ("anna\\ m", "anna m"),
        ("\"o'br", "o'br"), ("'say \"hi\"'", "say \"hi\""), ("\"a\\\"b\"", "a\"b"), ("", ""),
    ])
    func wordsAreReadAsTheShellReadsThem(word: String, text: String) {
        #expect(SearchTextCompletion.shellUnquoted(word) == text)
    }

    @Test func theLastDatabaseOptionWins() {
        #expect(SearchTextCompletion.databaseOption(in: ["ftsearch", "query", "an"]) == nil)
        #expect(
            SearchTextCompletion.databaseOption(in: ["ftsearch", "query", "--db", "a.db", "an"])
                == "a.db")
        #expect(
            SearchTextCompletion.databaseOption(in: ["ftsearch", "--db=a.db", "query", "--db", "b"])
                == "b")
        #expect(SearchTextCompletion.databaseOption(in: ["ftsearch", "query", "--db"]) == nil)
    }
}

/// The Tab on search text that ``SearchTextCompletion`` answers before the parser runs: the
/// requests it takes, read from the command tree the parser generates its scripts from.
@Suite struct SearchTextCompletionRequestTests {
    /// The commands (by path) whose completion scripts call back for a positional argument's
    /// values, with that argument's request name, from the parser's own description of the tool.
    private func customCompletedPositionals() throws -> [String: [String]] {
        var message = ""
        do {
            _ = try FTSearch.parseAsRoot(["--experimental-dump-help"])
        } catch {
            message = FTSearch.fullMessage(for: error)
        }
        let tool = try #require(
            try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])
        var found: [String: [String]] = [:]
        func walk(_ command: [String: Any], path: [String]) {
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            let positionals = arguments.filter { $0["kind"] as? String == "positional" }
            for (index, argument) in positionals.enumerated() {
                let kind = argument["completionKind"] as? [String: Any]
                if kind?["custom"] != nil {
                    found[path.joined(separator: " "), default: []].append("positional@\(index)")
                }
            }
            for subcommand in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(subcommand, path: path + [subcommand["commandName"] as? String ?? "?"])
            }
        }
        walk(try #require(tool["command"] as? [String: Any]), path: [])
        return found
    }

    /// The paths of the commands that declare themselves ``SearchTextCommand``s.
    private func searchTextCommands() -> [String] {
        func walk(_ command: any ParsableCommand.Type, path: [String]) -> [String] {
            command.configuration.subcommands.flatMap { subcommand in
                let name = subcommand.configuration.commandName ?? "?"
                let here =
                    subcommand is any SearchTextCommand.Type
                    ? [(path + [name]).joined(separator: " ")] : []
                return here + walk(subcommand, path: path + [name])
            }
        }
        return walk(FTSearch.self, path: [])
    }

    @Test func theSearchTextCommandsAreThoseWhoseScriptsAskForTheirFirstArgument() throws {
        let asked = try customCompletedPositionals()
        #expect(Set(asked.keys) == Set(searchTextCommands()))
        #expect(Set(searchTextCommands()) == ["query", "suggest", "interactive"])
        for requests in asked.values {
            #expect(requests == [SearchTextCompletion.textArgumentName])
        }
    }

    @Test(arguments: [
        ["query", "ann"],
        ["---completion", "query", "--", "--kind", "3", "0", "ftsearch", "query", "--kind", ""],
        [
            "---completion", "history", "delete", "--", "positional@0", "3", "0", "ftsearch",
            "history", "delete", "",
        ],
        ["---completion", "quary", "--", "positional@0", "2", "0", "ftsearch", "quary", ""],
        ["---completion", "query", "--", "words", "2", "0", "ftsearch", "query", ""],
        ["---completion", "query", "--", "positional@0", "two", "0", "ftsearch", "query", ""],
        ["---completion", "query", "--", "positional@0", "1", "3"],
        ["---completion", "query", "positional@0", "2", "0", "ftsearch", "query", ""],
    ])
    func otherCommandLinesAreLeftToTheParser(arguments: [String]) {
        #expect(SearchTextCompletion.answer(to: arguments, environment: [:]) == nil)
    }

    @Test(arguments: [("bash", ""), ("fish", ""), ("zsh", " \n")])
    func aDatabaseThatDoesNotExistIsAnsweredWithNothing(shell: String, answer: String) throws {
        let directory = try TemporaryDirectory()
        let arguments = [
            "---completion", "suggest", "--", "positional@0", "4", "2", "ftsearch", "suggest",
            "--db", directory.path + "/none.sqlite", "an",
        ]
        #expect(
            SearchTextCompletion.answer(to: arguments, environment: ["SAP_SHELL": shell]) == answer)
    }
}
