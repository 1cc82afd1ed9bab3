import Foundation

import FTSearchKit
import FTSearchSQLite

/// Sizes of the end-to-end robustness suites, scaled by `FTSEARCH_STRESS_ITERATIONS` (such as
/// `10` or `10x`; `scripts/stress` sets it), and their seed, `FTSEARCH_FUZZ_SEED`.
enum StressSettings {
    static let scale: Int = {
        let raw = ProcessInfo.processInfo.environment["FTSEARCH_STRESS_ITERATIONS"] ?? "1"
        let digits = raw.lowercased().hasSuffix("x") ? String(raw.dropLast()) : raw
        return max(1, Int(digits) ?? 1)
    }()

    static let seed: UInt64 =
        ProcessInfo.processInfo.environment["FTSEARCH_FUZZ_SEED"].flatMap { UInt64($0) }
        ?? 0x5EED_F75E_A2C4

    static func iterations(_ count: Int) -> Int { count * scale }
}

/// SplitMix64: a seeded generator, so that a failing run can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: group) {
            errorData = error.fileHandleForReading.readDataToEndOfFile()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let status =
            process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
        return Outcome(
            exitCode: status, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
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
