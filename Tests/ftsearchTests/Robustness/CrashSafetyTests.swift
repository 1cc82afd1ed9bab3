import Foundation
import FTSearchTestSupport
import Testing

/// `ftsearch import` killed with SIGKILL at random moments — while it opens or creates the
/// database, streams records, commits or checkpoints — many times over the same database: after
/// every kill the database passes `ftsearch check` and holds either none or all of that import's
/// records, and a first import killed leaves no database at all.
///
/// Default: 20 kills during imports of 30,000 records; `FTSEARCH_STRESS_ITERATIONS=10` makes it
/// 200 kills during imports of 200,000 records. Kill moments come from `FTSEARCH_FUZZ_SEED`.
@Suite struct CrashSafetyTests {
    static let recordCount = min(30_000 * TestSettings.scale, 200_000)
    static let killCount = TestSettings.iterations(20)

    @Test func killedImportsLeaveAllOrNothing() throws {
        let ftsearch = try FTSearchRunner()
        let file = try ftsearch.writePeople(Self.recordCount, to: "large.ndjson")
        let n = Self.recordCount
        // Two whole imports, into an empty database and into a filled one (they take different
        // paths and times), to check that they complete and to time the shorter: kills drawn
        // within it land mid-import.
        var durations: [TimeInterval] = []
        for expected in [n, 2 * n] {
            let started = Date()
            let whole = try ftsearch.run(["import", "--quiet", file])
            durations.append(Date().timeIntervalSince(started))
            #expect(whole.exitCode == 0, "\(whole.summary)")
            #expect(try FTSearchRunner.counts(at: ftsearch.databasePath).people == expected)
        }
        // Imports timed while other tests load the machine run faster once it is quiet: an
        // import that finished before its kill shortens the span the next kills are drawn in.
        var duration = durations.min() ?? 0

        var random = SeededGenerator(seed: TestSettings.seed)
        var killedMidway = 0
        for kill in 0..<Self.killCount {
            let exists = FileManager.default.fileExists(atPath: ftsearch.databasePath)
            let before = exists ? try FTSearchRunner.counts(at: ftsearch.databasePath).people : 0
            // Mostly anywhere in the import; sometimes in its first milliseconds, when it opens,
            // creates or migrates the database.
            let delay =
                random.next() % 5 == 0
                ? Double.random(in: 0...0.03, using: &random)
                : Double.random(in: 0...duration, using: &random)
            let process = try ftsearch.start(["import", "--quiet", file])
            usleep(UInt32(delay * 1_000_000))
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let wasKilled = process.terminationReason == .uncaughtSignal
            if wasKilled { killedMidway += 1 } else { duration = min(duration, delay * 0.8) }
            let context = "kill \(kill) after \(delay) s (seed \(TestSettings.seed))"

            guard FileManager.default.fileExists(atPath: ftsearch.databasePath) else {
                #expect(wasKilled && !exists, "\(context): the database disappeared")
                continue
            }
            let check = try ftsearch.run(["check"])
            #expect(
                check.exitCode == 0 && check.standardOutput == "ok\n",
                "\(context): \(check.summary)")
            let after = try FTSearchRunner.counts(at: ftsearch.databasePath).people
            if wasKilled {
                #expect(
                    after == before || after == before + n,
                    "\(context): \(before) → \(after) people")
            } else {
                #expect(
                    process.terminationStatus == 0 && after == before + n,
                    "\(context): \(before) → \(after)")
            }
            // Keep the database small enough to check quickly: start again from nothing, which
            // also lets the next kill land while the database is being created.
            if after >= 2 * n {
                for suffix in ["", "-wal", "-shm", "-history", "-history-wal", "-history-shm"] {
                    try? FileManager.default.removeItem(atPath: ftsearch.databasePath + suffix)
                }
            }
        }
        // A kill during the first import into a missing database leaves the file it was being
        // built in (see NewDatabaseBuild), which the next such import removes.
        for suffix in ["", "-wal", "-shm", "-history", "-history-wal", "-history-shm"] {
            try? FileManager.default.removeItem(atPath: ftsearch.databasePath + suffix)
        }
        let last = try ftsearch.run(["import", "--quiet", file])
        #expect(last.exitCode == 0, "\(last.summary)")
        let staged = try FileManager.default.contentsOfDirectory(atPath: ftsearch.directory)
            .filter { $0.contains("-importing-") }
        #expect(staged.isEmpty, "\(staged)")
        // Most kills must have landed during an import, or the test proves little.
        #expect(
            killedMidway * 2 >= Self.killCount,
            "only \(killedMidway) of \(Self.killCount) kills were mid-import")
        print(
            "CrashSafetyTests: \(killedMidway) of \(Self.killCount) kills landed mid-import of \(n) records"
        )
    }

    /// Interrupted while it builds a new database beside its path (Ctrl-C, a `kill`, a closed
    /// terminal), the first import removes what it built and ends by the signal, as before.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func anInterruptedFirstImportLeavesNoFile(signal: Int32) throws {
        let ftsearch = try FTSearchRunner()
        let file = try ftsearch.writePeople(100_000, to: "large.ndjson")
        // The test's threads block these signals, and a child inherits the mask of the thread
        // that starts it: as from a shell, the import starts with them unblocked.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, signal)
        var mask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &signals, &mask)
        let process = try ftsearch.start(["import", "--quiet", file])
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        // Until the build has begun: its file is there.
        let deadline = Date().addingTimeInterval(10)
        func isBuilding() throws -> Bool {
            try FileManager.default.contentsOfDirectory(atPath: ftsearch.directory).contains {
                $0.contains("-importing-")
            }
        }
        while process.isRunning, Date() < deadline, try !isBuilding() { usleep(5_000) }
        usleep(100_000)
        Foundation.kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "it ended before the signal")
        #expect(process.terminationStatus == signal)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: ftsearch.directory) == [
                "large.ndjson"
            ])
    }
}
