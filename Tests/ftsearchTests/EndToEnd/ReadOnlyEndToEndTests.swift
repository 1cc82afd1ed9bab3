import Foundation
import Testing
import FTSearchTestSupport

/// Another user's database in a folder the user cannot write: `query`, `suggest`, `stats`,
/// `history`, `check`, `show` and `export` work, the search is not logged (one warning), every command that writes
/// (a first substring search included: it builds the substring index) exits 74 with the reason,
/// and no file in the folder changes. Run as `nobody` when root.
@Suite struct ReadOnlyEndToEndTests {
    let ftsearch: FTSearchRunner
    let folder: String

    init() throws {
        ftsearch = try FTSearchRunner()
        folder = ftsearch.directory + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        ftsearch.environment["FTSEARCH_DB"] = folder + "/team.sqlite"
        try ftsearch.run([
            "import", FTSearchRunner.fixture("people.json"), FTSearchRunner.fixture("animals.json"),
        ])
    }

    /// The folder's files and their bytes.
    private func files() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return files
    }

    /// With a search logged by the owner, whose entry waits in the WAL for the next checkpoint
    /// (read through the -shm file), and without (no history file at all: the import made
    /// none, and searches read an empty history).
    @Test(arguments: [true, false])
    func readsWorkAndWritesExit74(ownerSearchedFirst: Bool) throws {
        if ownerSearchedFirst {
            // The first search makes the history file (and closing it copies its WAL in); the
            // second one's entry waits in the WAL.
            try ftsearch.run(["query", "ann"])
            try ftsearch.run(["query", "zoe"])
        }
        #expect(
            FileManager.default.fileExists(atPath: ftsearch.databasePath + "-history")
                == ownerSearchedFirst)
        // The entry waits in the history's own file (the search may also have kept its ranking
        // in the database's WAL).
        let walFiles = try files().keys.filter {
            $0.hasSuffix("-history-wal") || $0.hasSuffix("-history-shm")
        }
        #expect(walFiles.count == (ownerSearchedFirst ? 2 : 0))
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o444], ofItemAtPath: ftsearch.databasePath)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        }
        let before = try files()

        let query = try ftsearch.runAsAnotherUser(["query", "ann", "--format", "tsv"])
        #expect(query.exitCode == 0, "\(query.summary)")
        #expect(query.standardOutput.contains("\tAnn\tSmith\t"))
        #expect(
            query.standardError
                == "warning: the search was not recorded in the history: "
                + "\(ftsearch.databasePath) is read-only (you do not have permission to write it)\n"
        )
        for (arguments, expected) in [
            (["stats"], "people"), (["check"], "ok"), (["suggest", "an"], "Ann"),
            (["history", "--format", "tsv"], ownerSearchedFirst ? "zoe" : "id\ttext"),
            (["show", "people", "1"], "Ann"), (["export", "--kind", "animals"], "Annie"),
        ] {
            let outcome = try ftsearch.runAsAnotherUser(arguments)
            #expect(outcome.exitCode == 0 && outcome.standardError.isEmpty, "\(outcome.summary)")
            #expect(outcome.standardOutput.contains(expected), "\(arguments)")
        }
        for (arguments, change) in [
            (["import", FTSearchRunner.fixture("people.csv")], "import records"),
            (["add", "people", "--first-name", "Cy"], "add records"),
            (["update", "people", "1", "--company", "Initech"], "update a record"),
            (["delete", "people", "1"], "delete records"),
            (["history", "clear", "--yes"], "clear the history"),
            (["history", "delete", "--query", "zoe"], "delete history entries"),
            (["optimize"], "optimize the database"), (["rebuild"], "rebuild the indexes"),
            (
                ["query", "nna", "--match", "substring"],
                "build the substring index of people and animals"
            ),
        ] {
            let outcome = try ftsearch.runAsAnotherUser(arguments)
            #expect(outcome.exitCode == 74 && outcome.isOneLineError, "\(outcome.summary)")
            #expect(
                outcome.standardError.contains(
                    "cannot \(change): \(ftsearch.databasePath) is read-only"), "\(outcome.summary)"
            )
        }
        let substring = try ftsearch.runAsAnotherUser(["query", "nna", "--match", "substring"])
        #expect(
            substring.standardError.contains(
                "run one substring search as a user who may write the file"), "\(substring.summary)"
        )
        #expect(try files() == before)
    }
}
