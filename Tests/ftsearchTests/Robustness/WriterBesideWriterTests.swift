import Foundation
import FTSearchTestSupport
import Testing

/// Every command that writes, started while another process writes the same database, either
/// waits for it, saying after a second what it waits for, or with `--no-wait` fails at once
/// with exit 75 (EX_TEMPFAIL), the reason, and nothing changed. Never a generic I/O error after
/// a timeout.
@Suite struct WriterBesideWriterTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner.withFixtures()
        try ftsearch.run(["query", "ann"])
    }

    /// The writes, and whether each writes the history's own file rather than the records'.
    static let writes: [([String], Bool)] = [
        (["add", "people", "--first-name", "Cy"], false),
        (["update", "people", "1", "--company", "Initech"], false),
        (["delete", "people", "1"], false),
        (["import", FTSearchRunner.fixture("people.json")], false),
        (["optimize"], false),
        (["rebuild"], false),
        (["query", "nna", "--match", "substring"], false),
        (["history", "delete", "--query", "ann"], true),
        (["history", "clear", "--yes"], true),
    ]

    @Test(arguments: writes)
    func noWaitFailsAtOnceWithExit75AndChangesNothing(command: [String], isHistory: Bool)
        throws
    {
        let before = try ftsearch.snapshot() + ftsearch.output(["history", "--format", "tsv"])
        let lock = isHistory ? ftsearch.databasePath + "-history" : nil
        try ftsearch.whileAnotherProcessHoldsTheWriteLock(of: lock) { holder in
            let start = ContinuousClock.now
            let outcome = try ftsearch.run(command + ["--no-wait"])
            #expect(ContinuousClock.now - start < .seconds(1), "\(command)")
            #expect(outcome.exitCode == 75, "\(command): \(outcome.summary)")
            #expect(
                outcome.standardError.contains("is being written by process \(holder) (python3"),
                "\(command): \(outcome.standardError)")
            #expect(outcome.standardError.contains("--no-wait was given; nothing was changed"))
        }
        let after = try ftsearch.snapshot() + ftsearch.output(["history", "--format", "tsv"])
        #expect(after == before, "\(command)")
    }

    @Test func aWriterWaitsSayingForWhomThenWrites() throws {
        let lock = try ftsearch.holdWriteLock(forSeconds: 2.5)
        let start = ContinuousClock.now
        let outcome = try ftsearch.run(["add", "people", "--first-name", "Cy"])
        let elapsed = ContinuousClock.now - start
        lock.release()
        #expect(outcome.exitCode == 0, "\(outcome.summary)")
        #expect(elapsed > .seconds(1.5))
        let lines = outcome.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(outcome.standardError)")
        #expect(
            lines.first?.hasPrefix(
                "Waiting for process \(lock.process.processIdentifier) (python3 -c import sqlite3")
                == true,
            "\(outcome.standardError)")
        #expect(lines.first?.contains("to finish writing \(ftsearch.databasePath)") == true)
        #expect(try ftsearch.resultNames(["cy"]) == ["Cy"])
    }
}
