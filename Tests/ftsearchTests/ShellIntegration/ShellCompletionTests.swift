import FTSearchTestSupport
import Foundation
import Testing

@testable import FTSearchKit
import FTSearchSQLite

/// The scripts of `ftsearch completions` loaded in the real shells: bash with bash-completion,
/// zsh and fish (scripts/test installs them). Subcommands, option values and search text from
/// the history, including a multi-word, accented suggestion.
@Suite struct ShellCompletionTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner()
        try ftsearch.run(["import", FTSearchRunner.fixture("people.json")])
        for query in ["anna müller", "anna müller", "anna müller", "ann", "zoë annan"] {
            try ftsearch.run(["query", query])
        }
        for shell in ["bash", "zsh", "fish"] {
            try ftsearch.output(["completions", shell]).write(
                toFile: scriptPath(shell), atomically: true, encoding: .utf8)
        }
    }

    private func scriptPath(_ shell: String) -> String {
        ftsearch.directory + "/ftsearch.\(shell)"
    }

    private var binDirectory: String { FTSearchRunner.productsDirectory.path }

    // MARK: bash

    /// What bash offers (`COMPREPLY`) for each command line, given as the words bash's
    /// readline splits it into (the last one, possibly empty, under the cursor).
    private func bashCompletions(_ lines: [[String]], database: String? = nil) throws -> (
        offers: [[String]], errors: String
    ) {
        let calls = lines.map { words in
            "complete_words \(words.map(shellQuoted).joined(separator: " ")); echo '<end>'"
        }
        let script = """
            source /usr/share/bash-completion/bash_completion
            source \(shellQuoted(scriptPath("bash")))
            export PATH=\(shellQuoted(binDirectory)):$PATH
            export FTSEARCH_DB=\(shellQuoted(database ?? ftsearch.databasePath))
            complete_words() {
                COMP_WORDS=("$@")
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                COMP_LINE="${COMP_WORDS[*]}"
                COMP_POINT=${#COMP_LINE}
                COMPREPLY=()
                _ftsearch ftsearch "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
            }
            \(calls.joined(separator: "\n"))
            """
        let outcome = try runProcess("/bin/bash", ["--norc", "--noprofile", "-c", script])
        let offers = outcome.output.components(separatedBy: "<end>\n").dropLast().map {
            $0.split(separator: "\n").map(String.init)
        }
        return (offers, outcome.error)
    }

    @Test func bashCompletesSubcommandsOptionValuesAndSearches() throws {
        let historyBefore = try ftsearch.output(["history", "--format", "tsv"])
        let (offers, errors) = try bashCompletions([
            ["ftsearch", "qu"], ["ftsearch", "query", "--kind", ""],
            ["ftsearch", "suggest", "--by", ""], ["ftsearch", "query", "an"],
            ["ftsearch", "query", "\"anna m"], ["ftsearch", "suggest", "zo"],
        ])
        try #require(offers.count == 6, "\(offers) \(errors)")
        #expect(offers[0] == ["query"])
        #expect(offers[1] == ["people", "animals", "all"])
        #expect(offers[2] == ["frequency", "recency", "frecency"])
        #expect(offers[3].first == "anna müller", "the most frequent search first")
        #expect(offers[3].contains("ann") && offers[3].contains("annex"))
        #expect(offers[4].first == "anna müller", "one word, spaces and accents kept")
        #expect(offers[5].contains("zoë annan"))
        #expect(errors.isEmpty)
        #expect(try ftsearch.output(["history", "--format", "tsv"]) == historyBefore)
    }

    @Test func aMissingDatabaseOffersNothingAndPrintsNothing() throws {
        let (offers, errors) = try bashCompletions(
            [["ftsearch", "query", "an"]], database: ftsearch.directory + "/none/db.sqlite")
        #expect(offers == [[]])
        #expect(errors.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: ftsearch.directory + "/none"))
    }

    @Test func aDatabaseThatNeedsAnUpgradeIsLeftAsItIs() throws {
        // A database one schema version back: the next real command upgrades it, never a Tab.
        let path = ftsearch.directory + "/older.sqlite"
        let older = Schema.migrator.latestVersion - 1
        let migrator = Schema.migrator.prefix(older)
        let database = try Database(path: path)
        try database.registerSearchExtensions()
        try migrator.migrate(database)
        let (offers, errors) = try bashCompletions([["ftsearch", "query", "an"]], database: path)
        #expect(offers == [[]])
        #expect(errors.isEmpty)
        #expect(try Database(path: path).fetchInt(sql: "PRAGMA user_version") == older)
    }

    /// ftsearch answers a Tab on search text before the parser runs (``SearchTextCompletion``),
    /// so each shell's answer must be the one the parser gives the same request when it names
    /// the argument by its property (`-- words`), which only the parser reads.
    @Test(arguments: ["bash", "zsh", "fish"])
    func searchTextIsAnsweredAsTheParserAnswersIt(shell: String) throws {
        for (command, typed) in [("query", "an"), ("suggest", "\"anna m"), ("interactive", "zo")] {
            func answer(naming argument: String) throws -> String {
                let outcome = try ftsearch.run(
                    [
                        "---completion", command, "--", argument, "2", String(typed.count),
                        "ftsearch", command, typed,
                    ], environment: ["SAP_SHELL": shell, "SAP_SHELL_VERSION": "1"])
                #expect(outcome.exitCode == 0 && outcome.standardError.isEmpty)
                return outcome.standardOutput
            }
            let early = try answer(naming: "positional@0")
            #expect(
                !early.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                "\(command) \(typed) offers something")
            #expect(early == (try answer(naming: "words")))
        }
    }

    // MARK: zsh and fish, interactive in a terminal

    /// An interactive zsh or fish in a terminal, with the completion script loaded, at an
    /// empty `READY>` prompt.
    private func interactiveShell(_ shell: String) throws -> TmuxPane {
        let environment =
            "PATH=\(shellQuoted(binDirectory)):/usr/bin:/bin"
            + " FTSEARCH_DB=\(shellQuoted(ftsearch.databasePath))"
            + " HOME=\(shellQuoted(ftsearch.directory))"
        let pane: TmuxPane
        if shell == "zsh" {
            pane = try TmuxPane(running: "env \(environment) zsh -f -i", width: 100, height: 30)
            try pane.type(
                "PS1='READY> '; export PATH=\(shellQuoted(binDirectory)):$PATH;"
                    + " autoload -Uz compinit && compinit -D;"
                    + " source \(shellQuoted(scriptPath("zsh"))); clear")
        } else {
            pane = try TmuxPane(
                running: "env \(environment) fish --no-config -i", width: 100, height: 30)
            try pane.type(
                "function fish_prompt; echo 'READY> '; end;"
                    + " source \(shellQuoted(scriptPath("fish"))); clear")
        }
        try pane.press("Enter")
        try pane.waitForScreen { $0.first == "READY>" }
        return pane
    }

    /// Types `line` and Tab at a fresh prompt and returns the screen once it shows `expected`.
    private func complete(_ line: String, in pane: TmuxPane, expecting expected: String)
        throws -> String
    {
        try pane.press("C-e", "C-u")
        try pane.waitForScreen { $0.contains("READY>") }
        try pane.type("clear")
        try pane.press("Enter")
        try pane.waitForScreen { $0.first == "READY>" && $0.dropFirst().allSatisfy(\.isEmpty) }
        try pane.type(line)
        try pane.press("Tab")
        return try pane.waitForScreen { $0.joined(separator: "\n").contains(expected) }
            .joined(separator: "\n")
    }

    @Test(arguments: ["zsh", "fish"])
    func interactiveShellsComplete(shell: String) throws {
        let pane = try interactiveShell(shell)
        #expect(
            try complete("ftsearch qu", in: pane, expecting: "ftsearch query").contains(
                "READY> ftsearch query"))
        let kinds = try complete("ftsearch query --kind ", in: pane, expecting: "animals")
        #expect(kinds.contains("people") && kinds.contains("animals") && kinds.contains("all"))
        let searches = try complete("ftsearch query an", in: pane, expecting: "annex")
        #expect(searches.contains("anna müller") && searches.contains("ann"))
        let accented = try complete("ftsearch query \"zoë a", in: pane, expecting: "annan")
        #expect(accented.contains("zoë annan"))
    }

    // MARK: helpers

    private func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private func runProcess(_ path: String, _ arguments: [String]) throws -> (
        output: String, error: String
    ) {
        let outcome = try ProcessRunner.run(
            path, arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": ftsearch.directory])
        return (outcome.standardOutput, outcome.standardError)
    }
}
