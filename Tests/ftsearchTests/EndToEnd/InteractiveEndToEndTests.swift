import Foundation
import Testing
@testable import ftsearch
import FTSearchTestSupport

/// `ftsearch interactive` driven in a real pseudo-terminal (tmux): keys in, screen out, then
/// its standard output, exit code and the terminal's settings after it.
@Suite struct InteractiveEndToEndTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner.withFixtures()
        for text in ["annex", "annex", "zoe", "ann mül"] {
            try ftsearch.run(["query", text])
        }
    }

    // MARK: Running it

    private var directory: String { ftsearch.directory }

    /// Starts `ftsearch interactive arguments...` in a pane; its standard output goes to a file,
    /// and when it ends, its exit code and then `stty -a` (the terminal as it left it).
    private func start(_ arguments: [String] = [], width: Int = 80, height: Int = 24) throws
        -> TmuxPane
    {
        let pane = try launch(arguments, width: width, height: height)
        try pane.waitForScreen { $0.count > 1 && $0[1].contains("past search") }
        return pane
    }

    private func launch(_ arguments: [String], width: Int, height: Int) throws -> TmuxPane {
        let environment = ftsearch.environment.map { "\($0.key)=\(Self.quoted($0.value))" }
        let command =
            ["env", "-i"] + environment + [
                Self.quoted(FTSearchRunner.executable.path), "interactive",
            ]
            + arguments.map(Self.quoted)
        return try TmuxPane(
            running: """
                cd \(Self.quoted(directory)) || exit; \(command.joined(separator: " ")) >out 2>err & \
                echo $! >pid; wait $!; echo $? >code.tmp; stty -a >stty; mv code.tmp code
                """, width: width, height: height)
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private struct Outcome {
        var exitCode: Int32
        var standardOutput: String
        var terminalSettings: String

        /// Whether the terminal is back in cooked mode: line editing and echo.
        var terminalIsRestored: Bool {
            !terminalSettings.contains("-icanon") && !terminalSettings.contains("-echo ")
                && terminalSettings.contains("icanon")
        }
    }

    /// Waits for the command to end.
    private func outcome() throws -> Outcome {
        let deadline = ContinuousClock.now + .seconds(15)
        while !FileManager.default.fileExists(atPath: directory + "/code") {
            guard ContinuousClock.now < deadline else {
                throw TmuxPane.Failure(description: "ftsearch interactive did not exit")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        func read(_ name: String) throws -> String {
            try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        }
        return Outcome(
            exitCode: Int32(try read("code").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
            standardOutput: try read("out"), terminalSettings: try read("stty"))
    }

    // MARK: Expectations from the other commands

    /// The count of `text`'s matches, from `query --count`.
    private func count(of text: String, kind: String = "all") throws -> Int {
        Int(
            try ftsearch.output(["query", text, "--count", "--no-history", "--kind", kind])
                .trimmingCharacters(in: .newlines)) ?? -1
    }

    /// `query`'s results for `text` as TSV lines, header first.
    private func tsvLines(of text: String) throws -> [String] {
        try ftsearch.output(["query", text, "--format", "tsv", "--no-history"])
            .split(separator: "\n").map(String.init)
    }

    /// The name the screen shows for a TSV result line of `--kind all`.
    private func displayName(ofTSVLine line: String) -> String {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return fields[0] == "people" ? "\(fields[3]) \(fields[4])" : fields[6]
    }

    private func pastSearches() throws -> [String] {
        try ftsearch.output(["suggest", "", "--source", "history"]).split(separator: "\n")
            .map(String.init)
    }

    private func historyCount(of text: String) throws -> Int {
        let rows = try ftsearch.output(["history", "--format", "tsv"]).split(separator: "\n")
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        return rows.first { $0.count > 2 && $0[1] == text }.flatMap { Int($0[2]) } ?? 0
    }

    /// The status line of a screen whose list is current for its query line.
    private static func isCurrent(_ screen: [String], status: String) -> Bool {
        screen.count > 1 && screen[1].hasPrefix("  " + status) && !screen[1].contains("…")
    }

    // MARK: Tests

    @Test func typingAPrefixShowsTheTopResultAndPastSearchesAboveIt() throws {
        let pane = try start()
        let top = displayName(ofTSVLine: try tsvLines(of: "ann")[1])
        let total = try count(of: "ann")
        try pane.type("ann")
        let screen = try pane.waitForScreen {
            $0.first == "> ann" && Self.isCurrent($0, status: "\(total) matches")
        }
        let pastAbove = screen.dropFirst(2).prefix { $0.contains("past search") }
        #expect(pastAbove.map { $0.split(separator: " ").first } == ["annex", "ann"])
        let selected = try #require(screen.dropFirst(2).first { $0.hasPrefix(">") })
        #expect(selected.hasPrefix("> \(top) "))
        try pane.press("Escape")
        #expect(try outcome().exitCode == 1)
    }

    @Test func wordsAfterTheCommandAreTheQueryLineItStartsWith() throws {
        let total = try count(of: "ann smith")
        #expect(total > 0)
        let pane = try launch(["ann", "smith"], width: 80, height: 24)
        try pane.waitForScreen {
            $0.first == "> ann smith" && Self.isCurrent($0, status: "\(total) match")
        }
        try pane.press("Escape")
        #expect(try outcome().exitCode == 1)
    }

    @Test func matchModeSearchesAsQueryDoes() throws {
        // The first substring search builds the substring index: before the screen starts,
        // not silently under the first keystroke.
        let pane = try start(["--match", "substring"])
        let stats = try ftsearch.output(["stats", "--format", "json"])
        #expect(stats.contains(#""substring_index_bytes":{"people":"#), "\(stats)")
        let expected =
            try ftsearch.output([
                "query", "nna", "--match", "substring", "--format", "tsv", "--limit", "1",
                "--no-history",
            ])
            .split(separator: "\n")[1] + "\n"
        let total = Int(
            try ftsearch.output([
                "query", "nna", "--match", "substring", "--count", "--no-history",
            ]).trimmingCharacters(in: .newlines))!
        #expect(total > 0)
        try pane.type("nna")
        try pane.waitForScreen { Self.isCurrent($0, status: "\(total) match") }
        try pane.press("Enter")
        let outcome = try outcome()
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutput == expected)
    }

    @Test func enterPrintsTheChosenResultAsATSVLineAndRecordsTheSearchOnce() throws {
        let expected = try tsvLines(of: "zoe")[1] + "\n"
        let before = try historyCount(of: "zoe")
        let total = try count(of: "zoe")
        let pane = try start()
        try pane.type("zoe")
        try pane.waitForScreen { Self.isCurrent($0, status: "\(total) matches") }
        try pane.press("Enter")
        let outcome = try outcome()
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutput == expected)
        #expect(outcome.terminalIsRestored)
        #expect(try historyCount(of: "zoe") == before + 1)
        #expect(try historyCount(of: "z") == 0)  // not every keystroke
    }

    @Test func formatJSONPrintsTheResultObject() throws {
        let expected = try ftsearch.output([
            "query", "ann mül", "--format", "ndjson", "--limit", "1", "--no-history",
        ])
        let total = try count(of: "ann mül")
        let pane = try start(["--format", "json"])
        try pane.type("ann mül")
        try pane.waitForScreen { Self.isCurrent($0, status: "\(total) match") }
        try pane.press("Enter")
        let outcome = try outcome()
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutput == expected)
    }

    @Test func enterOnAPastSearchSearchesIt() throws {
        let past = try pastSearches()
        let pane = try start()
        try pane.waitForScreen { Self.isCurrent($0, status: "\(past.count) past searches") }
        try pane.press("Down")
        try pane.press("Enter")
        let total = try count(of: past[1])
        try pane.waitForScreen {
            $0.first == "> \(past[1])" && Self.isCurrent($0, status: "\(total) match")
        }
        try pane.press("Enter")
        let outcome = try outcome()
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutput == (try tsvLines(of: past[1])[1]) + "\n")
    }

    @Test func controlDDeletesThePastSearchFromTheHistory() throws {
        let past = try pastSearches()
        let pane = try start()
        try pane.waitForScreen { Self.isCurrent($0, status: "\(past.count) past searches") }
        try pane.press("Down")
        try pane.press("C-d")
        let screen = try pane.waitForScreen {
            Self.isCurrent($0, status: "\(past.count - 1) past searches")
        }
        #expect(!screen.contains { $0.hasPrefix("  \(past[1]) ") || $0.hasPrefix("> \(past[1]) ") })
        try pane.press("Escape")
        #expect(try outcome().exitCode == 1)
        #expect(try pastSearches() == past.filter { $0 != past[1] })
    }

    @Test func controlGTogglesSectionsByCompany() throws {
        let table = try ftsearch.output([
            "query", "ann", "--group-by", "company", "--format", "table", "--no-history",
        ])
        let companies = table.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map(String.init)
        let pane = try start(["--kind", "people"])
        try pane.type("ann")
        let total = try count(of: "ann", kind: "people")
        try pane.waitForScreen { Self.isCurrent($0, status: "\(total) matches") }
        try pane.press("C-g")
        let screen = try pane.waitForScreen { $0[1].contains("(sections by company)") }
        let titles = screen.dropFirst(2).filter {
            $0.hasPrefix("  ") && !$0.hasPrefix("   ") && !$0.contains("past search")
        }
        #expect(titles.map { $0.dropFirst(2) } == companies.map { Substring($0) })
        try pane.press("C-g")
        try pane.waitForScreen { !$0[1].contains("(sections by company)") }
        try pane.press("Escape")
        #expect(try outcome().exitCode == 1)
    }

    @Test func resizingRedrawsAtTheNewSize() throws {
        let pane = try start()
        try pane.type("ann")
        let total = try count(of: "ann")
        try pane.waitForScreen { Self.isCurrent($0, status: "\(total) matches") }
        try pane.resize(width: 50, height: 10)
        // Redrawn, not only cut by tmux: the key hints end at the new right edge.
        let small = try pane.waitForScreen {
            $0.count == 10 && $0[1].displayWidth == 50 && $0[1].hasSuffix("Esc quit")
        }
        #expect(small.allSatisfy { $0.displayWidth <= 50 })
        #expect(small[9].count > 2)  // the list fills the shorter screen
        #expect(small.contains { $0.contains("…") })  // long names cut, not wrapped
        try pane.resize(width: 100, height: 30)
        let large = try pane.waitForScreen {
            $0.count == 30 && $0[1].displayWidth == 100 && $0.contains { $0.hasSuffix("person 1") }
        }
        #expect(Self.isCurrent(large, status: "\(total) matches"))
        try pane.press("Escape")
        #expect(try outcome().exitCode == 1)
    }

    @Test(arguments: ["Escape", "C-c"])
    func escapeAndControlCExitOneWithNothingPrinted(key: String) throws {
        let pane = try start()
        try pane.type("ann")
        try pane.waitForScreen { $0.first == "> ann" }
        try pane.press(key)
        let outcome = try outcome()
        #expect(outcome.exitCode == 1)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.terminalIsRestored)
        #expect(try historyCount(of: "ann") == 0)
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let pane = try start()
        let pid = try String(contentsOfFile: directory + "/pid", encoding: .utf8)
        #expect(kill(pid_t(pid.trimmingCharacters(in: .whitespacesAndNewlines))!, SIGTERM) == 0)
        let outcome = try outcome()
        withExtendedLifetime(pane) {}
        #expect(outcome.exitCode == 128 + SIGTERM)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.terminalIsRestored)
    }

    @Test func refusesWithoutATerminal() throws {
        let started = ContinuousClock.now
        let outcome = try ftsearch.runProgram(
            "/usr/bin/setsid", ["-w", FTSearchRunner.executable.path, "interactive"])
        #expect(outcome.exitCode == 69)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.hasPrefix("Error: ftsearch interactive needs a terminal"))
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
