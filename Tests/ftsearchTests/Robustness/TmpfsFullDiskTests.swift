import Foundation
import FTSearchTestSupport
import Testing

/// Whether this process may mount a tmpfs: root, in a system or container that allows it.
enum TmpfsMount {
    static let isAllowed: Bool = {
        guard getuid() == 0 else { return false }
        let folder = NSTemporaryDirectory() + "ftsearch-mount-probe-" + UUID().uuidString
        guard
            (try? FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true)) != nil
        else { return false }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func run(_ path: String, _ arguments: [String]) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", folder]) else {
            return false
        }
        return run("/bin/umount", [folder])
    }()
}

/// A disk that is really full: a small tmpfs mounted in the test's own folder (root only).
/// An import, an export and a search's history write on it each fail with one clear error,
/// leave nothing half-written, and the database still passes `check`.
@Suite(.enabled(if: TmpfsMount.isAllowed, "mounting a tmpfs needs root (and the right)"))
struct TmpfsFullDiskTests {
    let ftsearch: FTSearchRunner
    let disk: String

    init() throws {
        ftsearch = try FTSearchRunner()
        disk = ftsearch.directory + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let mounted = try ftsearch.runProgram(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=6m", "tmpfs", disk])
        guard mounted.exitCode == 0 else {
            throw FTSearchRunner.Failure(description: "cannot mount a tmpfs: \(mounted.summary)")
        }
        ftsearch.environment["FTSEARCH_DB"] = disk + "/db.sqlite"
        try ftsearch.output([
            "import", FTSearchRunner.fixture("people.json"), FTSearchRunner.fixture("animals.json"),
            try ftsearch.writePeople(3_000, to: "some.ndjson"),
        ])
        try ftsearch.output(["query", "ann"])
    }

    private func unmount() throws {
        _ = try ftsearch.runProgram("/bin/umount", [disk])
    }

    /// Fills the disk but for `room` bytes, with a file that ``unfill()`` removes.
    private func fill(leaving room: Int) throws {
        let filler = disk + "/filler"
        let handle = try #require(
            FileHandle(forWritingAtPath: filler)
                ?? {
                    _ = FileManager.default.createFile(atPath: filler, contents: nil)
                    return FileHandle(forWritingAtPath: filler)
                }())
        let chunk = Data(count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        try handle.close()
        let size = try #require(
            (try FileManager.default.attributesOfItem(atPath: filler)[.size] as? NSNumber)?
                .intValue)
        #expect(truncate(filler, off_t(max(0, size - room))) == 0)
    }

    private func unfill() {
        unlink(disk + "/filler")
    }

    private func expectIntact(_ before: String, _ context: String) throws {
        let check = try ftsearch.run(["check"])
        #expect(
            check.exitCode == 0 && check.standardOutput == "ok\n", "\(context): \(check.summary)")
        #expect(try ftsearch.snapshot() == before, "\(context)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: disk).filter {
            $0.hasSuffix(".tmp") || $0.hasSuffix("-journal")
        }
        #expect(leftovers.isEmpty, "\(context): \(leftovers)")
    }

    @Test func importExportAndHistoryOnAFullDiskFailCleanly() throws {
        defer { try? unmount() }
        var tried = 0
        let before = try ftsearch.snapshot()
        let history = try ftsearch.output(["history", "--format", "tsv"])

        // An import far bigger than the disk, and imports on a disk already full but for a
        // little room.
        let big = try ftsearch.writePeople(60_000, to: "big.ndjson")
        for room in [Int.max, 256 << 10, 64 << 10, 8 << 10] {
            if room != .max { try fill(leaving: room) }
            defer { unfill() }
            let outcome = try ftsearch.run(["import", "--quiet", big])
            tried += 1
            #expect(outcome.exitCode == 74 && outcome.isOneLineError, "\(room): \(outcome.summary)")
            #expect(
                outcome.standardError.hasPrefix(
                    "Error: database I/O failed: no space left on device"),
                "\(outcome.standardError)")
            unfill()
            try expectIntact(before, "import with \(room) bytes free")
        }

        // An export bigger than the room left: no space left, no file, no temporary file.
        // (With less than 32 KiB free, SQLite cannot even make the -shm file it reads through,
        // and that is the error.)
        for room in [0, 64 << 10, 96 << 10, 128 << 10] {
            try fill(leaving: room)
            let output = disk + "/out.json"
            let outcome = try ftsearch.run(["export", "--output", output])
            tried += 1
            unfill()
            #expect(outcome.exitCode == 74, "\(room): \(outcome.summary)")
            #expect(
                room == 0
                    ? outcome.standardError.hasPrefix(
                        "Error: database I/O failed: no space left on device")
                    : outcome.standardError == "Error: \(output): no space left on device\n",
                "\(room): \(outcome.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output))
            try expectIntact(before, "export with \(room) bytes free")
        }

        // A search on a disk too full to read the database: one clear error.
        try fill(leaving: 0)
        let unreadable = try ftsearch.run(["query", "zoe"])
        tried += 1
        unfill()
        #expect(unreadable.exitCode == 74 && unreadable.isOneLineError, "\(unreadable.summary)")
        #expect(unreadable.standardError.contains("no space left on device"))
        // A search with room to read but not to record: its results, and a warning that it was
        // not recorded; the history is as it was, and records the next search once there is
        // room.
        try fill(leaving: 40 << 10)
        let query = try ftsearch.run(["query", "zoe"])
        tried += 1
        unfill()
        #expect(query.exitCode == 0, "\(query.summary)")
        #expect(query.standardOutput.contains("Zoë"))
        let recorded = try ftsearch.output(["history", "--format", "tsv"])
        if query.standardError.isEmpty {
            // SQLite found room in pages it had: the entry was recorded whole.
            #expect(recorded.contains("\tzoe\t1\t"))
        } else {
            #expect(
                query.standardError.hasPrefix(
                    "warning: the search was not recorded in the history: no space left on device"),
                "\(query.standardError)")
            #expect(recorded == history)
        }
        try expectIntact(before, "history write on a full disk")
        try ftsearch.output(["query", "bob"])
        #expect(try ftsearch.output(["history", "--format", "tsv"]).contains("\tbob\t1\t"))
        print("TmpfsFullDiskTests: \(tried) writes tried on a full tmpfs")
    }
}
