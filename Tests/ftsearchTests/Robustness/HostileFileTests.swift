import FTSearchKit
import FTSearchTestSupport
import FTSearchSQLite
import Foundation
import Testing

/// Databases the user did not mean to give ftsearch: in a place it cannot write, not SQLite,
/// damaged, from a newer ftsearch, on a full disk. Each must give one clear `Error:` line with
/// the exit code docs/cli.md gives, and never change the data that is there.
@Suite struct HostileFileTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner.withFixtures()
    }

    private func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// A folder that is a regular file stops root as well as anyone else (permission bits do
    /// not stop root, and the tests run as root in CI).
    @Test func databaseUnderARegularFileCannotBeCreated() throws {
        let file = try ftsearch.writePeople(1, to: "plain-file")
        let before = contents(file)
        let nested = try ftsearch.run([
            "import", FTSearchRunner.fixture("people.csv"), "--db", file + "/sub/db.sqlite",
        ])
        #expect(nested.exitCode == 73 && nested.isOneLineError, "\(nested.summary)")
        #expect(nested.standardError.contains("cannot create"))
        let direct = try ftsearch.run([
            "import", FTSearchRunner.fixture("people.csv"), "--db", file + "/db.sqlite",
        ])
        #expect(direct.exitCode == 74 && direct.isOneLineError, "\(direct.summary)")
        let query = try ftsearch.run(["query", "ann", "--db", file + "/db.sqlite"])
        #expect(query.exitCode == 66 && query.isOneLineError, "\(query.summary)")
        #expect(contents(file) == before)
    }

    /// A folder without write permission, for a user other than root: no database can be
    /// created in it (what can be done with one already there: ReadOnlyEndToEndTests).
    @Test func folderWithoutWritePermission() throws {
        let folder = ftsearch.directory + "/read-only"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        }
        let create = try ftsearch.runAsAnotherUser([
            "import", FTSearchRunner.fixture("people.csv"), "--db", folder + "/new.sqlite",
        ])
        #expect(create.exitCode == 74 && create.isOneLineError, "\(create.summary)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/new.sqlite"))
    }

    @Test(arguments: [
        "check", "query", "import", "suggest", "stats", "history", "optimize", "rebuild",
    ])
    func fileThatIsNotSQLite(command: String) throws {
        let path = ftsearch.directory + "/notes.txt"
        try String(repeating: "Shopping list: milk, eggs, bread.\n", count: 200).write(
            toFile: path, atomically: true, encoding: .utf8)
        let before = contents(path)
        let outcome = try ftsearch.run(arguments(for: command) + ["--db", path])
        #expect(outcome.exitCode == 65 && outcome.isOneLineError, "\(outcome.summary)")
        #expect(outcome.standardError.contains("is not an ftsearch database"))
        #expect(contents(path) == before)
    }

    private func arguments(for command: String) -> [String] {
        switch command {
        case "query": ["query", "ann"]
        case "import": ["import", FTSearchRunner.fixture("people.csv")]
        case "suggest": ["suggest", "an"]
        default: [command]
        }
    }

    @Test func databaseFromANewerVersion() throws {
        try Database(path: ftsearch.databasePath).execute(sql: "PRAGMA user_version = 99")
        let before = contents(ftsearch.databasePath)
        for command in ["query", "import", "suggest", "stats", "check", "history"] {
            let outcome = try ftsearch.run(arguments(for: command))
            #expect(
                outcome.exitCode == 65 && outcome.isOneLineError, "\(command): \(outcome.summary)")
            #expect(outcome.standardError.contains("schema version 99"), "\(command)")
        }
        #expect(contents(ftsearch.databasePath) == before)
        #expect(try FTSearchRunner.counts(at: ftsearch.databasePath) == (12, 5))
    }

    /// Bytes overwritten in the middle of the file, or the file cut short: `check` finds it
    /// (exit 65); other commands either work or give one line and 65, never crash; an import
    /// changes nothing.
    @Test func damagedDatabases() throws {
        try ftsearch.run(["import", try ftsearch.writePeople(3000, to: "more.ndjson")])
        let pristine = try #require(contents(ftsearch.databasePath))
        let pristinePath = ftsearch.databasePath
        var random = SeededGenerator(seed: TestSettings.seed)
        var damaged: [(String, Data)] = []
        for index in 0..<TestSettings.iterations(6) {
            var bytes = pristine
            let start = Int.random(in: (bytes.count / 8)..<(bytes.count * 7 / 8), using: &random)
            let length = Int.random(in: 16...4096, using: &random)
            for offset in start..<min(bytes.count, start + length) {
                bytes[offset] = UInt8.random(in: 0...255, using: &random)
            }
            damaged.append(("overwritten \(index): \(length) bytes at \(start)", bytes))
        }
        damaged.append(("truncated to half", pristine.prefix(pristine.count / 2)))
        damaged.append(("truncated to 100 bytes", pristine.prefix(100)))
        for (name, bytes) in damaged {
            let path = ftsearch.directory + "/damaged.sqlite"
            #expect(FileManager.default.createFile(atPath: path, contents: bytes))
            // Damage in unused space is harmless, and integrity checks rightly pass it.
            let check = try ftsearch.run(["check", "--db", path])
            if check.exitCode == 0 {
                #expect(
                    try records(in: path) == records(in: pristinePath), "\(name): undetected damage"
                )
            } else {
                #expect(check.exitCode == 65, "\(name): check \(check.summary)")
            }
            for command in ["query", "suggest", "stats", "import"] {
                let previous = contents(path)
                let outcome = try ftsearch.run(arguments(for: command) + ["--db", path])
                #expect(
                    [0, 65].contains(outcome.exitCode), "\(name): \(command) \(outcome.summary)")
                if outcome.exitCode != 0 {
                    #expect(outcome.isOneLineError, "\(name): \(command) \(outcome.summary)")
                }
                if command == "import" && outcome.exitCode != 0 {
                    #expect(
                        contents(path) == previous, "\(name): the failed import changed the file")
                }
            }
        }
    }

    private func records(in path: String) throws -> String {
        try ftsearch.output([
            "query", "", "--limit", "0", "--format", "ndjson", "--no-history", "--db", path,
        ])
    }
}
