import Foundation
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// The first import into a database that does not exist yet builds it beside its path and
/// moves it there whole (``NewDatabaseBuild``); every other import writes the file in place.
@Suite struct NewDatabaseBuildTests {
    let directory: TemporaryDirectory
    let path: String
    /// The time every import and record gets.
    let clock: @Sendable () -> Timestamp = { Timestamp(iso8601: "2026-01-01T12:00:00Z")! }

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.file("people.db")
    }

    private let header = "first_name,last_name,company,city\n"

    private func people(_ count: Int, from first: Int = 0) -> String {
        (first..<first + count).map { "Ann\($0),Lee\($0 % 7),Acme \($0 % 5),Oslo\n" }.joined()
    }

    /// What a database holds, as an export of every record, and whether `check` finds it sound.
    private func contents(of path: String) throws -> (export: String, problems: [DatabaseProblem]) {
        let index = try SearchIndex(path: path, mode: .existingOnly, clock: clock)
        let output = directory.file("export-\(UUID().uuidString).json")
        try index.export(.all, as: .json, toFile: output)
        return (try String(contentsOfFile: output, encoding: .utf8), try index.check())
    }

    @discardableResult
    private func importFiles(
        _ files: [String], into path: String, options: ImportOptions = ImportOptions(),
        onSkip: @escaping (RecordProblem) -> Void = { _ in }
    ) throws -> ImportSummary {
        try SearchIndex.importFiles(
            files, intoDatabaseAt: path, options: options, clock: clock, onSkip: onSkip)
    }

    @Test func aNewDatabaseHoldsWhatAnImportInPlaceWouldInWALModeAndNothingBesideIt() throws {
        let file = try directory.write(header + people(3_000), to: "people.csv")
        let summary = try importFiles([file], into: path)
        #expect(summary.inserted[.people] == 3_000)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == ["people.csv", "people.db"])

        // The same file imported into an existing, empty database: written in place.
        let inPlace = directory.file("in-place.db")
        _ = try SearchIndex(path: inPlace, clock: clock)
        try importFiles([file], into: inPlace)

        let built = try contents(of: path)
        #expect(built.problems.isEmpty)
        #expect(built.export == (try contents(of: inPlace)).export)
        let index = try SearchIndex(path: path, clock: clock)
        #expect(try index.database.fetchText(sql: "PRAGMA journal_mode") == "wal")
        #expect(try index.search(SearchRequest(text: "ann2999")).hits.map(\.record.id) == [3000])
    }

    @Test func aFailedImportLeavesNoDatabaseAndNoStagingFile() throws {
        let file = try directory.write(header + people(50) + "Bob,\"Lee\n", to: "bad.csv")
        #expect(throws: ImportError.self) { try importFiles([file], into: path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["bad.csv"])
    }

    /// When another process creates the database while the build runs, the files are read
    /// again and imported into that database, beside what it holds.
    @Test func aDatabaseCreatedMeanwhileGetsTheRecordsImportedIntoIt() throws {
        let file = try directory.write(
            header + people(200) + "Bob,Lee,Acme\n" + people(100, from: 200), to: "people.csv")
        var skipped: [Int] = []
        let createTheDatabase = { [path, clock] in
            let other = try? SearchIndex(path: path, clock: clock)
            _ = try? other?.insert(Person(firstName: "Cy", lastName: "Other"))
        }
        let summary = try importFiles(
            [file], into: path, options: ImportOptions(skipInvalid: true),
            onSkip: { problem in
                skipped.append(problem.line)
                // The build is half done: another process creates the file.
                if skipped.count == 1 { createTheDatabase() }
            })
        #expect(skipped == [202, 202])
        #expect(summary.inserted[.people] == 300)
        let index = try SearchIndex(path: path, clock: clock)
        #expect(try index.count(Person.self) == 301)
        #expect(try index.find(Person.self, id: 1)?.firstName == "Cy")
        #expect(try index.check().isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == ["people.csv", "people.db", "people.db-shm", "people.db-wal"])
    }

    /// The folders of a new database are made first (the default database's, on the first
    /// import ever), and it is still built beside its path there.
    @Test func theFoldersOfANewDatabaseAreMadeForItsBuild() throws {
        let file = try directory.write(header + people(5) + "Bob\n" + people(5), to: "people.csv")
        let folder = directory.file("a/b")
        var filesDuringTheImport: [String] = []
        let summary = try importFiles(
            [file], into: folder + "/people.db", options: ImportOptions(skipInvalid: true),
            onSkip: { _ in
                filesDuringTheImport =
                    (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            })
        #expect(summary.inserted[.people] == 10)
        #expect(filesDuringTheImport == ["people.db-importing-\(getpid())"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["people.db"])
    }

    /// When the staging file cannot be made, the import writes the database at its path.
    @Test func anImportThatCannotBuildAsideWritesInPlace() throws {
        let file = try directory.write(header + people(10), to: "people.csv")
        let staging = try #require(NewDatabaseBuild(path: path, inputs: [file])).stagingPath
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        let summary = try importFiles([file], into: path)
        #expect(summary.inserted[.people] == 10)
        #expect(try contents(of: path).problems.isEmpty)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: staging, isDirectory: &isFolder))
        #expect(isFolder.boolValue)
    }

    @Test func onlyAMissingDatabaseReadFromFilesIsBuiltAside() throws {
        let file = try directory.write(header + people(1), to: "people.csv")
        #expect(NewDatabaseBuild(path: path, inputs: [file]) != nil)
        #expect(NewDatabaseBuild(path: path, inputs: [file, "-"]) == nil)
        #expect(NewDatabaseBuild(path: path, inputs: [directory.path]) == nil)
        for companion in ["", "-wal", "-journal"] {
            let leftover = try directory.write("", to: "people.db" + companion)
            #expect(NewDatabaseBuild(path: path, inputs: [file]) == nil, "\(companion)")
            try FileManager.default.removeItem(atPath: leftover)
        }
    }

    /// A build killed before its end leaves its staging file; the next build beside the same
    /// path removes it, but never one of a process still running.
    @Test func theStagingFileOfAnEndedProcessIsRemovedByTheNextBuild() throws {
        let file = try directory.write(header + people(1), to: "people.csv")
        let ended = try directory.write("half a database", to: "people.db-importing-2147483646")
        let running = try directory.write("half a database", to: "people.db-importing-1")
        let otherDatabase = try directory.write(
            "half a database", to: "other.db-importing-2147483646")
        try importFiles([file], into: path)
        #expect(!FileManager.default.fileExists(atPath: ended))
        #expect(FileManager.default.fileExists(atPath: running))
        #expect(FileManager.default.fileExists(atPath: otherDatabase))
    }
}
