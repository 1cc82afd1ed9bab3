import Foundation

/// What a finished process left: its exit status and everything it wrote.
public struct ProcessOutcome: Sendable {
    /// The exit status; 128 plus the signal's number when a signal ended it, as a shell says.
    public var exitCode: Int32
    /// Everything written to standard output, decoded as UTF-8.
    public var standardOutput: String
    /// Everything written to standard error, decoded as UTF-8.
    public var standardError: String
}

/// Runs a program to its end with two pipes, as a shell would: the one way the end-to-end
/// suites start processes they wait for.
public enum ProcessRunner {
    /// Runs `executable` with `arguments`, feeding `input` (then end of file) to its standard
    /// input, and returns once it has exited. Both pipes are read to the end before waiting, so
    /// a child that fills one cannot block.
    public static func run(
        _ executable: String, _ arguments: [String], input: String? = nil,
        environment: [String: String], directory: String? = nil
    ) throws -> ProcessOutcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe(), error = Pipe(), inputPipe = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inputPipe.fileHandleForWriting.close()
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: group) {
            errorData = error.fileHandleForReading.readDataToEndOfFile()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessOutcome(
            exitCode: process.terminationReason == .uncaughtSignal
                ? 128 + process.terminationStatus : process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}
