import Foundation
import FTSearchTestSupport
import Testing

/// Several processes search (logging history) while another imports: every query succeeds at
/// once (no warning, none near a busy timeout), every search is counted exactly once, the
/// import completes.
///
/// Default: 4 querying processes, each running queries until the import of 60,000 records has
/// finished (and at least 3 times); scaled by `FTSEARCH_STRESS_ITERATIONS`.
@Suite struct ConcurrencyTests {
    static let querierCount = 4
    static let recordCount = min(60_000 * TestSettings.scale, 200_000)
    static let minimumRounds = TestSettings.iterations(3)

    @Test func queriesWhileImportingAllSucceedAndAreCountedExactly() throws {
        let ftsearch = try FTSearchRunner.withFixtures()
        let file = try ftsearch.writePeople(Self.recordCount, to: "large.ndjson")
        let done = ftsearch.directory + "/import-done"
        let errors = ftsearch.directory + "/errors"
        let times = ftsearch.directory + "/times"

        let importer = try ftsearch.start(["import", "--quiet", file])
        var queriers: [(Process, Pipe)] = []
        for number in 0..<Self.querierCount {
            // Each round: a search shared by every process, one of its own, and a suggestion.
            let script = """
                i=0
                while [ ! -e "$DONE" ] || [ $i -lt \(Self.minimumRounds) ]; do
                    start=$(date +%s%N)
                    "$FTSEARCH" query 'Shared Search' >/dev/null 2>>"$ERRORS" || { echo "shared failed: $?" >&2; exit 1; }
                    end=$(date +%s%N); echo $(((end - start) / 1000000)) >>"$TIMES"; start=$end
                    "$FTSEARCH" query "process \(number) ann" --kind people >/dev/null 2>>"$ERRORS" || { echo "own failed: $?" >&2; exit 1; }
                    end=$(date +%s%N); echo $(((end - start) / 1000000)) >>"$TIMES"
                    "$FTSEARCH" suggest pro >/dev/null 2>>"$ERRORS" || { echo "suggest failed: $?" >&2; exit 1; }
                    i=$((i+1))
                done
                echo $i
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            process.environment = ftsearch.environment.merging(
                [
                    "FTSEARCH": FTSearchRunner.executable.path, "DONE": done, "ERRORS": errors,
                    "TIMES": times,
                ]) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.standardError
            try process.run()
            queriers.append((process, output))
        }
        importer.waitUntilExit()
        #expect(importer.terminationReason == .exit && importer.terminationStatus == 0)
        #expect(FileManager.default.createFile(atPath: done, contents: nil))

        var rounds: [Int] = []
        for (process, output) in queriers {
            let text = String(
                decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "a querying process failed")
            rounds.append(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1)
        }

        let warnings = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(warnings.isEmpty, "\(warnings.prefix(300))")
        let milliseconds = ((try? String(contentsOfFile: times, encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { Int($0) }.sorted()
        // Searches beside the import: none waits for it (a wait for the write lock would last
        // until the import ends, or the busy timeout).
        #expect((milliseconds.last ?? 0) < 3000, "query times in ms: \(milliseconds)")

        let history = try ftsearch.output(["history", "--limit", "0", "--format", "tsv"])
        var counts: [String: Int] = [:]
        for line in history.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            counts[String(columns[1])] = Int(columns[2])
        }
        #expect(
            counts["Shared Search"] == rounds.reduce(0, +), "rounds \(rounds), history \(counts)")
        for (number, count) in rounds.enumerated() {
            #expect(
                counts["process \(number) ann"] == count,
                "process \(number): \(count) rounds, history \(counts)")
        }
        #expect(try FTSearchRunner.counts(at: ftsearch.databasePath) == (12 + Self.recordCount, 5))
        let check = try ftsearch.run(["check"])
        #expect(check.exitCode == 0, "\(check.summary)")
        print(
            "ConcurrencyTests: \(Self.querierCount) processes ran \(rounds) rounds of 3 commands during an import of \(Self.recordCount) records; query p50 \(milliseconds.isEmpty ? 0 : milliseconds[milliseconds.count / 2]) ms, max \(milliseconds.last ?? 0) ms"
        )
    }

    /// Beside the first import into an empty database (once done with a rollback journal, whose
    /// exclusive lock made every reader wait 10 s and fail), searches answer at once with the
    /// state before the import: nothing. Beside the first import into a database that does not
    /// exist yet (built beside its path, then moved there whole), they answer at once that
    /// there is no database, until all of it is there.
    @Test(arguments: [true, false])
    func searchesBesideTheFirstImportAnswerAtOnce(databaseExists: Bool) throws {
        let ftsearch = try FTSearchRunner()
        if databaseExists {
            let empty = ftsearch.directory + "/empty.ndjson"
            #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
            try ftsearch.output(["import", "--kind", "people", empty])
        }
        let file = try ftsearch.writePeople(100_000, to: "large.ndjson")
        let importer = try ftsearch.start(["import", "--quiet", file])
        usleep(300_000)
        var answers: [(FTSearchRunner.Outcome, Duration)] = []
        while importer.isRunning && answers.count < 20 {
            let start = ContinuousClock.now
            let outcome = try ftsearch.run(["query", "bulk1", "--count", "--no-history"])
            answers.append((outcome, ContinuousClock.now - start))
        }
        importer.waitUntilExit()
        #expect(importer.terminationStatus == 0)
        #expect(!answers.isEmpty, "the import ended before a search could run beside it")
        let before =
            databaseExists
            ? (exitCode: Int32(0), output: "0\n")
            : (exitCode: Int32(66), output: "")
        for (outcome, elapsed) in answers {
            let answer = (exitCode: outcome.exitCode, output: outcome.standardOutput)
            #expect(
                answer == before || answer == (0, "11111\n"), "\(outcome.summary)")
            #expect(elapsed < .seconds(2), "a search beside the first import took \(elapsed)")
        }
        if !databaseExists {
            #expect(answers.contains { $0.0.exitCode == 66 }, "no search ran beside the build")
        }
    }
}
