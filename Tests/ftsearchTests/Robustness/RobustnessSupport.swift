import FTSearchTestSupport
import Foundation

import FTSearchKit
import FTSearchSQLite

extension FTSearchRunner {
    /// Writes an NDJSON file of `count` people without ids (so every import adds them all) and
    /// returns its path.
    func writePeople(_ count: Int, to name: String, tag: String = "bulk") throws -> String {
        let path = directory + "/" + name
        var text = ""
        text.reserveCapacity(count * 80)
        for index in 0..<count {
            text += "{\"first_name\":\"\(tag)\(index)\",\"last_name\":\"Lastname\(index % 997)\","
            text += "\"company\":\"Company \(index % 101) Ltd\",\"note\":\"row \(index)\"}\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Starts `ftsearch arguments...` without waiting; output goes to /dev/null.
    func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `/bin/sh -c script` with `$FTSEARCH` set to the binary, in the runner's folder and
    /// environment.
    @discardableResult
    func runShell(_ script: String) throws -> Outcome {
        try runProgram("/bin/sh", ["-c", script], environment: ["FTSEARCH": Self.executable.path])
    }

    /// Runs any program, as ``run(_:input:environment:)`` runs ftsearch.
    func runProgram(
        _ path: String, _ arguments: [String], environment extra: [String: String] = [:]
    )
        throws -> Outcome
    {
        try ProcessRunner.run(
            path, arguments, environment: environment.merging(extra) { $1 }, directory: directory)
    }

    /// Runs `ftsearch arguments...` as a user other than the owner of the runner's files: as
    /// root, as `nobody` through setpriv(1) (permission bits do not stop root); otherwise as
    /// this user, whom the files' permission bits already stop.
    func runAsAnotherUser(_ arguments: [String]) throws -> Outcome {
        guard getuid() == 0 else { return try run(arguments) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw Failure(description: "running as root without /usr/bin/setpriv")
        }
        return try runProgram(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", Self.executable.path] + arguments)
    }

    /// Runs `body` while another process (Python's sqlite3) holds the write lock of the
    /// database at `path` (the runner's by default), as an import does for as long as it runs.
    func whileAnotherProcessHoldsTheWriteLock<T>(
        of path: String? = nil, _ body: (_ holder: Int32) throws -> T
    ) throws -> T {
        let holder = try holdWriteLock(of: path)
        defer { holder.release() }
        return try body(holder.process.processIdentifier)
    }

    /// Starts another process (Python's sqlite3) that holds the write lock of the database at
    /// `path` (the runner's by default) until `release()`, or for `seconds` when given, and
    /// returns once the lock is held.
    func holdWriteLock(of path: String? = nil, forSeconds seconds: Double? = nil) throws
        -> WriteLockHolder
    {
        try WriteLockHolder(of: path ?? databasePath, forSeconds: seconds)
    }
}

/// Another process holding a database's write lock (see `FTSearchRunner.holdWriteLock`).
struct WriteLockHolder {
    let process = Process()
    private let input = Pipe()

    fileprivate init(of path: String, forSeconds seconds: Double?) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", "-c",
                """
                import sqlite3, sys, time
                connection = sqlite3.connect(sys.argv[1], isolation_level=None)
                connection.execute("BEGIN IMMEDIATE")
                print("locked", flush=True)
                time.sleep(float(sys.argv[2])) if len(sys.argv) > 2 else sys.stdin.read()
                connection.execute("ROLLBACK")
                """,
                path,
            ] + (seconds.map { [String($0)] } ?? [])
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = output.fileHandleForReading.availableData
        guard String(decoding: line, as: UTF8.self).hasPrefix("locked") else {
            release()
            throw FTSearchRunner.Failure(description: "python3 could not lock \(path)")
        }
    }

    /// Lets the lock go (at once, or when the given time is up) and waits for the process.
    func release() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

extension FTSearchRunner {
    /// The number of people and animals in the database at `path` (read with the library, so it
    /// does not depend on the command under test).
    static func counts(at path: String) throws -> (people: Int, animals: Int) {
        let database = try Database(path: path, mode: .readOnly)
        return (
            try database.fetchInt(sql: "SELECT count(*) FROM people") ?? 0,
            try database.fetchInt(sql: "SELECT count(*) FROM animals") ?? 0
        )
    }
}

extension FTSearchRunner.Outcome {
    /// Whether standard error is exactly one `Error: ...` line.
    var isOneLineError: Bool {
        standardError.hasPrefix("Error: ") && standardError.hasSuffix("\n")
            && standardError.dropLast().firstIndex(of: "\n") == nil
    }

    var summary: String {
        "exit \(exitCode), stderr \(standardError.debugDescription), stdout \(standardOutput.prefix(200).debugDescription)"
    }
}
