import Foundation
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// A database another user can read but not write: searches, statistics, the history list,
/// suggestions and `check` work; every change throws ``ReadOnlyDatabaseError`` and nothing in
/// the folder changes. Run as `nobody` (see ``asAnotherUser(_:)``).
@Suite struct ReadOnlyDatabaseTests {
    let directory: TemporaryDirectory
    let folder: String
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        folder = directory.file("shared")
        path = folder + "/team.sqlite"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    }

    /// The folder's files and their bytes.
    private func snapshot() throws -> [String: Data] {
        try directory.snapshot(of: "shared")
    }

    /// Creates the database with two people and one history entry (in the history's own file),
    /// both checkpointed and closed.
    private func createDatabase() throws {
        let index = try SearchIndex(path: path)
        try index.history.record("ann", kinds: .all, resultCount: 1)
        try index.importPeople([("Ann", "Smith", "Annex Ltd"), ("Bob", "Jones", "Acme")])
        try index.optimize()
    }

    /// Then records a search, which leaves the history's WAL and its -shm file for the next
    /// checkpoint.
    private func createDatabaseWithAWALLeft() throws {
        try createDatabase()
        try SearchIndex(path: path).history.record("zoe", kinds: .all, resultCount: 0)
    }

    /// Makes the folder and the database file read-only (for everyone but root), runs `body` as
    /// another user, and expects every file in the folder unchanged.
    ///
    /// - Parameters:
    ///   - files: The names expected in the folder.
    ///   - changing: Files left out of the comparison.
    private func asAnotherUserOnTheReadOnlyFolder(
        fileMode: Int = 0o444, files: [String], changing: Set<String> = [],
        _ body: () throws -> Void
    ) throws {
        try FileManager.default.setAttributes([.posixPermissions: fileMode], ofItemAtPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        }
        let before = try snapshot()
        #expect(before.keys.sorted() == files.sorted())
        try asAnotherUser(body)
        #expect(
            try snapshot().filter { !changing.contains($0.key) }
                == before.filter { !changing.contains($0.key) })
    }

    private let fileAlone = ["team.sqlite"]
    /// A new database has no history file until a search is recorded.
    private let fileAndWAL = ["team.sqlite", "team.sqlite-shm", "team.sqlite-wal"]
    private let filesAlone = ["team.sqlite", "team.sqlite-history"]
    private let historyWithWAL = [
        "team.sqlite", "team.sqlite-history", "team.sqlite-history-shm", "team.sqlite-history-wal",
    ]

    /// Every write of the library, each expected to be refused.
    private func expectEveryChangeRefused(_ index: SearchIndex) throws {
        let changes: [(String, () throws -> Void)] = [
            ("import records", { try index.importPeople([("Cy", "Young", "")]) }),
            ("add", { try index.insert(Person(firstName: "Cy", lastName: "Young", company: "")) }),
            ("update", { try index.update(Person.self, id: 1) { $0.company = "Initech" } }),
            ("delete", { try index.delete(Person.self, ids: [1]) }),
            ("record", { try index.history.record("bob", kinds: .all, resultCount: 1) }),
            ("delete history", { try index.history.delete(matching: "ann") }),
            ("clear the history", { try index.history.clear() }),
            ("rebuild", { try index.rebuild() }),
            ("optimize", { try index.optimize() }),
            (
                "substring search without its index",
                { _ = try index.search(SearchRequest(text: "nn", match: .substring)) }
            ),
        ]
        for (name, change) in changes {
            let error = #expect(throws: ReadOnlyDatabaseError.self, "\(name)") { try change() }
            #expect(error?.path == path)
            #expect(error?.description.contains("is read-only") == true, "\(name)")
        }
    }

    @Test func anotherUsersDatabaseInAFolderTheyCannotWrite() throws {
        try createDatabase()
        try asAnotherUserOnTheReadOnlyFolder(files: filesAlone) {
            let index = try SearchIndex(path: path, mode: .existingOnly)
            #expect(index.readOnlyReason == .permissionDenied)
            #expect(try index.names(for: "ann") == ["Ann Smith"])
            #expect(try index.statistics().people == 2)
            #expect(try index.history.entries().map(\.text) == ["ann"])
            #expect(try index.suggestions(forPrefix: "an").map(\.text).contains("ann"))
            #expect(try index.check() == [])
            let exported = MemoryOutput()
            try index.export(.people, as: .csv, to: exported)
            #expect(String(decoding: exported.bytes, as: UTF8.self).contains("Ann,Smith"))
            try expectEveryChangeRefused(index)
        }
    }

    @Test func aWriterAtWorkIsReadThroughItsSharedMemory() throws {
        let writer = try SearchIndex(path: path)
        try writer.importPeople([("Zoë", "Ødegaard", "Oslo")])
        // SQLite shares one mapping of the -shm file among the connections of a process, so a
        // reader in the writer's process sets its read mark there; another process could not.
        try asAnotherUserOnTheReadOnlyFolder(files: fileAndWAL, changing: ["team.sqlite-shm"]) {
            let index = try SearchIndex(path: path, mode: .existingOnly)
            #expect(index.readOnlyReason == .permissionDenied)
            // Still only in the writer's WAL: read through the -shm, not from the file alone.
            #expect(try index.names(for: "zoe") == ["Zoë Ødegaard"])
            try expectEveryChangeRefused(index)
        }
        #expect(try writer.names(for: "zoe") == ["Zoë Ødegaard"])
    }

    @Test func aWALLeftForTheNextCheckpointIsRead() throws {
        try createDatabaseWithAWALLeft()
        try asAnotherUserOnTheReadOnlyFolder(files: historyWithWAL) {
            let index = try SearchIndex(path: path, mode: .existingOnly)
            #expect(try index.history.entries().map(\.text) == ["zoe", "ann"])
            #expect(try index.check() == [])
        }
    }

    @Test func aWALWithoutSharedMemoryIsRefusedWithTheReason() throws {
        try createDatabaseWithAWALLeft()
        try FileManager.default.removeItem(atPath: path + "-history-shm")
        try asAnotherUserOnTheReadOnlyFolder(
            files: ["team.sqlite", "team.sqlite-history", "team.sqlite-history-wal"]
        ) {
            let index = try SearchIndex(path: path, mode: .existingOnly)
            #expect(try index.names(for: "ann") == ["Ann Smith"])
            let error = try #require(throws: DatabaseOpenError.self) {
                try index.history.entries()
            }
            guard case .cannotOpen(_, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reason.contains("-shm"))
        }
    }

    @Test func aWritableFileInAFolderTheyCannotWrite() throws {
        try createDatabase()
        try asAnotherUserOnTheReadOnlyFolder(fileMode: 0o666, files: filesAlone) {
            let index = try SearchIndex(path: path, mode: .existingOnly)
            #expect(index.readOnlyReason == .folderNotWritable)
            #expect(try index.names(for: "bob") == ["Bob Jones"])
            #expect(try index.check() == [])
            try expectEveryChangeRefused(index)
        }
    }

    /// The substring index is built by the first substring search; on a database this process
    /// cannot write, that search fails saying what to do, and works once the owner has built it.
    @Test func aSubstringSearchNeedsItsIndexBuiltBySomeoneWhoMayWrite() throws {
        try createDatabase()
        let substringSearch = SearchRequest(text: "nne", kinds: .people, match: .substring)
        try asAnotherUserOnTheReadOnlyFolder(files: filesAlone) {
            let index = try SearchIndex(path: path, mode: .existingOnly)
            let error = try #require(throws: ReadOnlyDatabaseError.self) {
                try index.search(substringSearch)
            }
            #expect(error.change == "build the substring index of people")
            #expect(
                error.description
                    == "cannot build the substring index of people: \(path) is read-only (you do "
                    + "not have permission to write it); a substring search needs it: run one "
                    + "substring search as a user who may write the file (the index is built once "
                    + "and kept), or search with prefix matching (the default)")
            #expect(try index.names(for: "ann") == ["Ann Smith"])
        }
        try SearchIndex(path: path).prepareIndexes(for: .substring, of: .people)
        try asAnotherUserOnTheReadOnlyFolder(files: filesAlone) {
            let index = try SearchIndex(path: path, mode: .existingOnly)
            #expect(
                try index.search(substringSearch).hits.map(\.record.displayName) == ["Ann Smith"])
        }
    }

    @Test func anOlderSchemaIsNotUpgradedButRefused() throws {
        let version2 = Schema.migrator.prefix(2)
        try version2.migrate(Database(path: path))
        try asAnotherUserOnTheReadOnlyFolder(files: fileAlone) {
            let error = try #require(throws: ReadOnlyDatabaseError.self) {
                try SearchIndex(path: path, mode: .existingOnly)
            }
            #expect(
                error.change
                    == "upgrade its schema from version 2 to \(Schema.migrator.latestVersion)")
            #expect(error.reason == .permissionDenied)
        }
    }
}
