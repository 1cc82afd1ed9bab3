import Foundation
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// Replays every input in `Fixtures/fuzz-regressions/` — inputs that once failed a fuzz case —
/// through its reader in several chunk and buffer sizes.
///
/// Each `NAME.EXT` (`csv`, `tsv`, `json`, `ndjson`) must satisfy the reading invariants and read
/// to exactly the events in `NAME.EXT.expected` (one event per line). To add a failing input,
/// copy it from the path the fuzz failure printed, fix the bug, then write its `.expected` file
/// with `FTSEARCH_RECORD_REGRESSIONS=1 swift test --filter FuzzRegressionTests` and check it.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz-regressions").path

    static let inputs: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { !$0.hasSuffix(".expected") }.sorted()
    }()

    @Test func thereAreRegressionInputs() {
        #expect(Self.inputs.count >= 6)
    }

    @Test(arguments: inputs)
    func replays(name: String) throws {
        let format = try #require(FuzzFormat(rawValue: (name as NSString).pathExtension), "\(name)")
        let path = Self.directory + "/" + name
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let expectedPath = path + ".expected"
        let events = format.read(
            bytes, chunkSize: 1 << 16, bufferCapacity: 1 << 16, limit: bytes.count + 2)
        let lines = events.map(\.description)
        if ProcessInfo.processInfo.environment["FTSEARCH_RECORD_REGRESSIONS"] == "1" {
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: expectedPath, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines == expected)
        #expect(
            ReadInvariants.problems(in: events, of: bytes, format: format, expectedPrefix: []) == []
        )
        for chunkSize in [1, 2, 3, 7] {
            for capacity in [1, 2, 16] {
                let again = format.read(
                    bytes, chunkSize: chunkSize, bufferCapacity: capacity, limit: bytes.count + 2)
                #expect(again.map(\.description) == lines, "chunk \(chunkSize), buffer \(capacity)")
            }
        }
    }
}
