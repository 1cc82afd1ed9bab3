import Foundation
import FTSearchTestSupport
import Testing

/// `export --output PATH` writes where the user points, and only there: a regular file through
/// a temporary file renamed over it (following a symbolic link to the file it names, keeping
/// that file's mode); a device, a FIFO or a link to standard output directly, reporting its
/// write errors. Every special file is made inside the test's own folder, never in /dev.
@Suite struct OutputPathTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner.withFixtures()
    }

    private func fileType(_ path: String) -> mode_t {
        var status = stat()
        guard lstat(path, &status) == 0 else { return 0 }
        return status.st_mode & S_IFMT
    }

    @Test func aSymlinkIsFollowedAndItsTargetReplacedKeepingItsMode() throws {
        let target = ftsearch.directory + "/real.json"
        let link = ftsearch.directory + "/link.json"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("old".utf8)))
        #expect(chmod(target, 0o640) == 0)
        #expect(symlink("real.json", link) == 0)
        let outcome = try ftsearch.run(["export", "--output", link, "--force"])
        #expect(outcome.exitCode == 0, "\(outcome.summary)")
        #expect(fileType(link) == S_IFLNK)
        #expect(fileType(target) == S_IFREG)
        var status = stat()
        #expect(stat(target, &status) == 0 && status.st_mode & 0o7777 == 0o640)
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written.hasPrefix("{\"people\":["))
        let names = try FileManager.default.contentsOfDirectory(atPath: ftsearch.directory)
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
    }

    @Test func aSymlinkToAFileNotYetThereCreatesItWithoutForce() throws {
        let link = ftsearch.directory + "/link.json"
        #expect(symlink("new.json", link) == 0)
        let outcome = try ftsearch.run(["export", "--output", link])
        #expect(outcome.exitCode == 0, "\(outcome.summary)")
        #expect(fileType(link) == S_IFLNK)
        #expect(fileType(ftsearch.directory + "/new.json") == S_IFREG)
        // Now the link names a file: replacing it needs --force.
        #expect(try ftsearch.run(["export", "--output", link]).exitCode == 73)
    }

    @Test func aFIFOIsWrittenNotReplaced() throws {
        let fifo = ftsearch.directory + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let group = DispatchGroup()
        nonisolated(unsafe) var received = Data()
        DispatchQueue.global().async(group: group) {
            received = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()
        }
        let outcome = try ftsearch.run(["export", "--output", fifo, "--force"])
        group.wait()
        #expect(outcome.exitCode == 0, "\(outcome.summary)")
        #expect(fileType(fifo) == S_IFIFO)
        let expected = try ftsearch.output(["export"])
        #expect(String(decoding: received, as: UTF8.self) == expected)
    }

    /// A link to this process's standard output, as /dev/stdout is (made here, so that a wrong
    /// rename could never replace the system's).
    @Test func aLinkToStandardOutputWritesStandardOutput() throws {
        let link = ftsearch.directory + "/stdout"
        #expect(symlink("/proc/self/fd/1", link) == 0)
        let outcome = try ftsearch.run(["export", "--output", link, "--force"])
        #expect(outcome.exitCode == 0, "\(outcome.summary)")
        #expect(outcome.standardOutput == (try ftsearch.output(["export"])))
        #expect(fileType(link) == S_IFLNK)
    }

    /// A character device 1,7 (what /dev/full is) made in the test's folder: the export fails
    /// with "no space left on device", exit 74, and the node stays a device.
    @Test(.enabled(if: getuid() == 0, "mknod needs root"))
    func aFullDeviceFailsWithNoSpaceLeftAndStaysADevice() throws {
        let device = ftsearch.directory + "/full"
        let made = try ftsearch.runProgram("/bin/mknod", [device, "c", "1", "7"])
        #expect(made.exitCode == 0, "\(made.summary)")
        let outcome = try ftsearch.run(["export", "--output", device, "--force"])
        #expect(outcome.exitCode == 74, "\(outcome.summary)")
        #expect(outcome.standardError == "Error: \(device): no space left on device\n")
        #expect(fileType(device) == S_IFCHR)
        let names = try FileManager.default.contentsOfDirectory(atPath: ftsearch.directory)
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
    }

    /// A character device 1,3 (what /dev/null is): written, and left a device.
    @Test(.enabled(if: getuid() == 0, "mknod needs root"))
    func aNullDeviceIsWrittenAndStaysADevice() throws {
        let device = ftsearch.directory + "/null"
        #expect(try ftsearch.runProgram("/bin/mknod", [device, "c", "1", "3"]).exitCode == 0)
        let outcome = try ftsearch.run(["export", "--output", device])
        #expect(outcome.exitCode == 0, "\(outcome.summary)")
        #expect(fileType(device) == S_IFCHR)
    }
}
