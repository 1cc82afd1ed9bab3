import FTSearchTestSupport
import Foundation

/// Runs the built `ftsearch` binary against a database of its own, as a user's shell would.
final class FTSearchRunner: @unchecked Sendable {
    typealias Outcome = ProcessOutcome

    /// The folder the test binary was built into; `ftsearch` is built beside it.
    static let productsDirectory: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("ftsearch").path),
            url.path != "/"
        {
            url.deleteLastPathComponent()
        }
        return url
    }()

    static let executable = productsDirectory.appendingPathComponent("ftsearch")

    /// The repository's Fixtures folder.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    let directory: String
    var environment: [String: String]

    init() throws {
        directory = NSTemporaryDirectory() + "ftsearch-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        environment = [
            "PATH": "/usr/bin:/bin", "HOME": directory, "FTSEARCH_DB": directory + "/db.sqlite",
            "FTSEARCH_NOW": "2026-01-01T12:00:00Z",
        ]
    }

    /// A runner whose database holds the people and animals of `Fixtures/people.json` and
    /// `Fixtures/animals.json`, imported by the binary.
    static func withFixtures() throws -> FTSearchRunner {
        let runner = try FTSearchRunner()
        try runner.run(["import", fixture("people.json"), fixture("animals.json")])
        return runner
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    var databasePath: String { environment["FTSEARCH_DB"]! }

    /// The path of a fixture file: `fixture("broken/truncated.json")`.
    static func fixture(_ name: String) -> String {
        fixtures.appendingPathComponent(name).path
    }

    /// Runs `ftsearch arguments...`, feeding `input` to its standard input.
    @discardableResult
    func run(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:])
        throws -> Outcome
    {
        try ProcessRunner.run(
            Self.executable.path, arguments, input: input,
            environment: environment.merging(extra) { $1 }, directory: directory)
    }

    /// Runs `ftsearch arguments...` and returns its standard output, requiring exit code 0 (a
    /// step that must succeed may ignore the output).
    @discardableResult
    func output(_ arguments: [String], input: String? = nil) throws -> String {
        let outcome = try run(arguments, input: input)
        guard outcome.exitCode == 0 else {
            throw Failure(
                description:
                    "ftsearch \(arguments) exited \(outcome.exitCode): \(outcome.standardError)")
        }
        return outcome.standardOutput
    }

    /// The first and last names (or animal names) of the results of `ftsearch query`, via TSV.
    func resultNames(_ arguments: [String]) throws -> [String] {
        try output(["query", "--format", "tsv", "--no-history"] + arguments)
            .split(separator: "\n").dropFirst().map { line in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                return fields[3...].filter { !$0.isEmpty }.prefix(2).joined(separator: " ")
            }
    }

    /// Everything stored, as JSON lines, for comparing the database before and after.
    func snapshot() throws -> String {
        try output(["query", "", "--limit", "0", "--format", "ndjson", "--no-history"])
            + output(["stats", "--format", "json"])
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
