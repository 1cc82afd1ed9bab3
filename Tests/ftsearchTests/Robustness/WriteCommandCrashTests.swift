import Foundation
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// Every write command killed with SIGKILL at random moments of its run (not only imports, see
/// ``CrashSafetyTests``): `add`, `update`, `delete`, a search's history write, `optimize`, a
/// migration and the substring index build. After each kill `ftsearch check` passes and the
/// command's change is there entirely or not at all.
///
/// Default: 8 kills per command; scaled by `FTSEARCH_STRESS_ITERATIONS`, moments drawn from
/// `FTSEARCH_FUZZ_SEED`.
@Suite struct WriteCommandCrashTests {
    static let killCount = TestSettings.iterations(8)

    enum Command: String, CaseIterable {
        case add, update, delete, historyWrite, optimize, migration, substringIndexBuild
    }

    /// What a command changes, read with the library: the state before, the state the command
    /// leaves, and anything in between is a half-done write.
    private static func state(_ command: Command, at path: String, step: Int) throws -> String {
        let database = try Database(path: path, mode: .readOnly)
        switch command {
        case .add:
            return
                "\(try database.fetchInt(sql: "SELECT count(*) FROM people WHERE first_name = 'Killed\(step)'") ?? -1)"
        case .update:
            return try database.fetchText(sql: "SELECT company FROM people WHERE id = 1") ?? "none"
        case .delete:
            return
                "\(try database.fetchInt(sql: "SELECT count(*) FROM people WHERE first_name = 'Doomed\(step)'") ?? -1)"
        case .historyWrite:
            let history = try Database(path: path + "-history", mode: .readOnly)
            return
                "\(try history.fetchInt(sql: "SELECT use_count FROM history WHERE key = 'killed search'") ?? 0)"
        case .optimize:
            return "\(try database.fetchInt(sql: "SELECT count(*) FROM people") ?? -1)"
        case .migration:
            let version = try Migrator.version(of: database)
            let history = try? Database(path: path + "-history", mode: .readOnly)
            let moved = (try? history?.fetchInt(sql: "SELECT sum(use_count) FROM history")) ?? nil
            let left =
                version < 8 ? try database.fetchInt(sql: "SELECT sum(use_count) FROM history") : nil
            return "v\(version) main \(left ?? 0) file \(moved ?? 0)"
        case .substringIndexBuild:
            return
                "\(try database.fetchInt(sql: "SELECT count(*) FROM sqlite_schema WHERE name = 'people_substring'") ?? -1)"
        }
    }

    /// Makes the state the command starts from, and returns its arguments.
    private static func prepare(_ command: Command, _ ftsearch: FTSearchRunner, step: Int) throws
        -> [String]
    {
        switch command {
        case .add: return ["add", "people", "--first-name", "Killed\(step)"]
        case .update: return ["update", "people", "1", "--company", "Company \(step)"]
        case .delete:
            let id = try ftsearch.output(["add", "people", "--first-name", "Doomed\(step)"])
            return ["delete", "people", id.trimmingCharacters(in: .whitespacesAndNewlines)]
        case .historyWrite: return ["query", "killed search"]
        case .optimize:
            try ftsearch.output(["add", "people", "--first-name", "Optimized\(step)"])
            return ["optimize"]
        case .migration:
            // A schema 7 database with a history of 2,000 searches in it, which migration 9
            // moves to the history's own file.
            for suffix in ["", "-wal", "-shm", "-history", "-history-wal", "-history-shm"] {
                try? FileManager.default.removeItem(atPath: ftsearch.databasePath + suffix)
            }
            let database = try Database(path: ftsearch.databasePath)
            try database.registerSearchExtensions()
            try database.execute(sql: "PRAGMA journal_mode = WAL")
            try Schema.migrator.prefix(7).migrate(database)
            try database.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
                    INSERT INTO history(key, text, kind, result_count, use_count, first_used, last_used)
                    SELECT 'search ' || i, 'search ' || i, 'all', 1, 3, '2025-01-01T00:00:00Z',
                        '2025-01-01T00:00:00Z' FROM n
                    """)
            return ["stats"]
        case .substringIndexBuild:
            try ftsearch.output(["rebuild"])
            let database = try Database(path: ftsearch.databasePath)
            try database.registerSearchExtensions()
            let sync = try IndexSync(kind: .people, in: database)
            if sync.indexes.contains(FullTextIndex.substrings(of: .people)) {
                // Back to the state before the first substring search.
                try database.inTransaction {
                    try database.execute(sql: sync.dropTriggersSQL)
                    try database.execute(sql: "DROP TABLE people_substring")
                    try database.execute(
                        sql: IndexSync(kind: .people, in: database).createTriggersSQL)
                }
            }
            return ["query", "nna", "--match", "substring", "--kind", "people"]
        }
    }

    @Test(arguments: Command.allCases)
    func killedWriteCommandsLeaveAllOrNothing(command: Command) throws {
        let ftsearch = try FTSearchRunner.withFixtures()
        let people = try ftsearch.writePeople(5_000, to: "people.ndjson")
        try ftsearch.output(["import", "--quiet", people])
        let number = Command.allCases.firstIndex(of: command) ?? 0
        var random = SeededGenerator(seed: TestSettings.seed("WriteCommandCrashTests", number))
        // One whole run, to time it: kills are drawn within it.
        var arguments = try Self.prepare(command, ftsearch, step: 0)
        let started = ContinuousClock.now
        let whole = try ftsearch.run(arguments)
        let duration = ContinuousClock.now - started
        #expect(whole.exitCode == 0, "\(whole.summary)")
        var killedMidway = 0
        for step in 1...Self.killCount {
            arguments = try Self.prepare(command, ftsearch, step: step)
            let before = try Self.state(command, at: ftsearch.databasePath, step: step)
            // The state the command leaves, from a copy run to the end.
            let copy = try FTSearchRunner()
            for suffix in ["", "-wal", "-shm", "-history", "-history-wal", "-history-shm"]
            where FileManager.default.fileExists(atPath: ftsearch.databasePath + suffix) {
                try FileManager.default.copyItem(
                    atPath: ftsearch.databasePath + suffix, toPath: copy.databasePath + suffix)
            }
            #expect(try copy.run(arguments).exitCode == 0)
            let done = try Self.state(command, at: copy.databasePath, step: step)

            let delay = Double.random(in: 0...(duration / .seconds(1)), using: &random)
            let process = try ftsearch.start(arguments)
            usleep(UInt32(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killedMidway += 1 }
            let context = "\(command) kill \(step) after \(delay) s (seed \(TestSettings.seed))"
            let check = try ftsearch.run(["check"])
            #expect(check.exitCode == 0, "\(context): \(check.summary)")
            let after = try Self.state(command, at: ftsearch.databasePath, step: step)
            #expect(
                after == before || after == done,
                "\(context): before \(before), done \(done), after the kill \(after)")
        }
        print(
            "WriteCommandCrashTests: \(command): \(killedMidway) of \(Self.killCount) kills landed mid-command"
        )
    }
}
