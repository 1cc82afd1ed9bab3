import Foundation
import Testing
import FTSearchTestSupport

@Suite struct HistoryEndToEndTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner.withFixtures()
    }

    private func query(_ text: String, at now: String) throws {
        let outcome = try ftsearch.run(["query", text], environment: ["FTSEARCH_NOW": now])
        #expect(outcome.exitCode == 0)
    }

    @Test func queriesAreRecordedOncePerNormalizedText() throws {
        try query("Zoë", at: "2026-01-01T10:00:00Z")
        try query("  ZOE ", at: "2026-01-01T11:00:00Z")
        try query("ann", at: "2026-01-01T12:00:00Z")
        #expect(
            try ftsearch.output(["history", "list", "--format", "tsv"]) == """
                id\ttext\tcount\tlast_used\tresult_count\tkind
                2\tann\t1\t2026-01-01T12:00:00Z\t7\tall
                1\t  ZOE \t2\t2026-01-01T11:00:00Z\t3\tall

                """)
    }

    @Test func noHistoryFlagAndEnvironmentLogNothing() throws {
        try ftsearch.run(["query", "ann", "--no-history"])
        try ftsearch.run(["query", "ann"], environment: ["FTSEARCH_NO_HISTORY": "1"])
        try ftsearch.run(["query", "   "])
        #expect(try ftsearch.output(["history", "--format", "json"]) == "[]\n")
    }

    @Test func suggestCompletesFromHistoryThenTheIndex() throws {
        try query("anna müller", at: "2026-01-01T10:00:00Z")
        try query("annex", at: "2026-01-01T10:00:00Z")
        try query("annex", at: "2026-01-01T11:00:00Z")
        try query("annxx", at: "2026-01-01T11:00:00Z")
        #expect(
            try ftsearch.output(["suggest", "an", "--limit", "4"])
                == "annex\nanna müller\nAND\nAnn\n")
        #expect(try ftsearch.output(["suggest", "mül", "--source", "history"]) == "anna müller\n")
        #expect(
            try ftsearch.output(["suggest", "an", "--source", "history", "--include-empty"])
                == "annex\nannxx\nanna müller\n")
        let json = try ftsearch.output(["suggest", "annex", "--format", "json"])
        #expect(
            json
                == "[{\"text\":\"annex\",\"source\":\"history\",\"count\":2,\"last_used\":\"2026-01-01T11:00:00Z\"}]\n"
        )
        #expect(
            try ftsearch.output([
                "suggest", "ann", "--format", "tsv", "--source", "index", "--limit", "1",
            ])
                == "text\tsource\tcount\tlast_used\nAnnex\tindex\t2\t\n")
    }

    @Test func suggestIsNotRecordedAndIsSilentWithoutADatabase() throws {
        try ftsearch.run(["suggest", "an"])
        #expect(try ftsearch.output(["history", "--format", "json"]) == "[]\n")
        let none = try ftsearch.run(["suggest", "an", "--db", ftsearch.directory + "/none.sqlite"])
        #expect(none.exitCode == 0 && none.standardOutput.isEmpty && none.standardError.isEmpty)
    }

    @Test func deleteByIDAndByText() throws {
        try query("ann", at: "2026-01-01T10:00:00Z")
        try query("zoe", at: "2026-01-01T11:00:00Z")
        let missing = try ftsearch.run(["history", "delete", "1", "99"])
        #expect(missing.exitCode == 65)
        #expect(missing.standardError == "Error: no history entry with id 99\n")
        #expect(
            try ftsearch.output(["history", "--format", "tsv"]).split(separator: "\n").count == 3)
        #expect(try ftsearch.run(["history", "delete", "1"]).exitCode == 0)
        #expect(try ftsearch.run(["history", "delete", "--query", "ZOË"]).exitCode == 0)
        #expect(try ftsearch.output(["history", "--format", "json"]) == "[]\n")
        #expect(try ftsearch.run(["history", "delete"]).exitCode == 64)
    }

    @Test func clearNeedsYesWithoutATerminal() throws {
        try query("ann", at: "2025-12-01T10:00:00Z")
        try query("zoe", at: "2026-01-01T11:00:00Z")
        let refused = try ftsearch.run(["history", "clear"])
        #expect(refused.exitCode == 64)
        #expect(refused.standardError.contains("--yes"))
        let before = try ftsearch.run(["history", "clear", "--before", "2025-12-31", "--yes"])
        #expect(before.standardError == "Deleted 1 history entry.\n")
        #expect(try ftsearch.output(["history", "--format", "tsv"]).contains("\tzoe\t"))
        #expect(try ftsearch.run(["history", "clear", "--yes"]).exitCode == 0)
        #expect(try ftsearch.output(["history", "--format", "json"]) == "[]\n")
        #expect(
            try ftsearch.run(["history", "clear", "--before", "someday", "--yes"]).exitCode == 64)
    }

    @Test func invalidNowIsAUsageError() throws {
        let outcome = try ftsearch.run(["query", "ann"], environment: ["FTSEARCH_NOW": "tomorrow"])
        #expect(outcome.exitCode == 64)
        #expect(outcome.standardError.contains("FTSEARCH_NOW"))
    }

    /// 8 processes each run 100 queries for the same text at once, while another process holds
    /// the database's write lock (as an import does for as long as it runs): every search is
    /// recorded (the count is exactly 800), none warns, none waits.
    @Test func concurrentQueriesBesideAWriterNeverLoseAnIncrementNorWait() throws {
        let environment = ftsearch.environment
        let errors = ftsearch.directory + "/errors"
        let started = ContinuousClock.now
        let statuses = try ftsearch.whileAnotherProcessHoldsTheWriteLock { _ in
            var processes: [Process] = []
            for _ in 0..<8 {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = [
                    "-c",
                    "i=0; while [ $i -lt 100 ]; do \"$0\" query 'Ann' >/dev/null 2>>\"$1\" || exit 1; i=$((i+1)); done",
                    FTSearchRunner.executable.path, errors,
                ]
                process.environment = environment
                try process.run()
                processes.append(process)
            }
            return processes.map { process in
                process.waitUntilExit()
                return process.terminationStatus
            }
        }
        let elapsed = ContinuousClock.now - started
        #expect(statuses == Array(repeating: 0, count: 8))
        let warnings = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(warnings.isEmpty, "\(warnings.prefix(300))")
        // Each of the 800 processes waiting out a busy timeout would take minutes.
        #expect(elapsed < .seconds(120), "800 queries took \(elapsed)")
        let history = try ftsearch.output(["history", "--format", "tsv"])
        #expect(history.contains("\tAnn\t800\t"))
    }
}
