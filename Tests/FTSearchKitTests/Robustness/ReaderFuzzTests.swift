@testable import FTSearchFormats
import Testing
import FTSearchTestSupport

@testable import FTSearchEngine
@testable import FTSearchKit

/// Thousands of generated and mutated inputs through every reader, in random chunk and buffer
/// sizes. A generated document must read back exactly as written; a mutated one must read the
/// records before the damage exactly, then go on or stop with an error located inside the input
/// — never crash, hang or return a wrong record.
///
/// Failing inputs are saved under ``FailedInputs/directory`` (named in the failure) to be added
/// to `Fixtures/fuzz-regressions/`. Scale with `FTSEARCH_STRESS_ITERATIONS`, replay with
/// `FTSEARCH_FUZZ_SEED`.
@Suite struct ReaderFuzzTests {
    static let generatedCount = TestSettings.iterations(1000)
    static let mutatedCount = TestSettings.iterations(4000)

    static let chunkSizes = [1, 2, 3, 7, 64, 4096, 1 << 16]
    static let bufferCapacities = [1, 2, 5, 16, 256, 1 << 16]

    @Test(arguments: FuzzFormat.allCases)
    func generatedDocumentsReadBackExactly(format: FuzzFormat) {
        var failures = 0
        for index in 0..<Self.generatedCount where failures < 3 {
            let seed = TestSettings.seed("generated-\(format)", index)
            var random = SeededGenerator(seed: seed)
            var generator = DocumentGenerator(random: random)
            let document = generator.document(format)
            random = generator.random
            let chunkSize = random.pick(Self.chunkSizes)
            let capacity = random.pick(Self.bufferCapacities)
            let events = format.read(
                document.bytes, chunkSize: chunkSize, bufferCapacity: capacity,
                limit: document.bytes.count + 2)
            if events.map(\.description) != document.expected.map(\.description) {
                failures += 1
                let kept = FailedInputs.keep(document.bytes, name: "generated-\(seed).\(format)")
                Issue.record(
                    """
                    \(format) seed \(seed) (chunk \(chunkSize), buffer \(capacity)), input kept at \(kept)
                    expected: \(document.expected)
                    read:     \(events)
                    """)
            }
        }
    }

    @Test(arguments: FuzzFormat.allCases)
    func mutatedDocumentsReadTheirIntactRecordsThenFailLocated(format: FuzzFormat) {
        var failures = 0
        for index in 0..<Self.mutatedCount where failures < 3 {
            let seed = TestSettings.seed("mutated-\(format)", index)
            var random = SeededGenerator(seed: seed)
            var generator = DocumentGenerator(random: random)
            let document = generator.document(format)
            random = generator.random
            let mutation = Mutation.random(of: document.bytes, using: &random)
            let chunkSize = random.pick(Self.chunkSizes)
            let capacity = random.pick(Self.bufferCapacities)
            let events = format.read(
                mutation.bytes, chunkSize: chunkSize, bufferCapacity: capacity,
                limit: mutation.bytes.count + 2)
            let intact = document.recordEnds.prefix { $0 <= mutation.offset }.count
            let problems = ReadInvariants.problems(
                in: events, of: mutation.bytes, format: format,
                expectedPrefix: Array(document.expected.prefix(intact)))
            if !problems.isEmpty {
                failures += 1
                let kept = FailedInputs.keep(mutation.bytes, name: "mutated-\(seed).\(format)")
                Issue.record(
                    """
                    \(format) seed \(seed) (\(mutation.summary); chunk \(chunkSize), buffer \(capacity)), \
                    input kept at \(kept)
                    \(problems.joined(separator: "\n"))
                    read: \(events)
                    """)
            }
        }
    }

    /// Fields of a megabyte and more, in every format, read whole across many buffer refills.
    @Test(arguments: FuzzFormat.allCases)
    func enormousFieldsAreReadWhole(format: FuzzFormat) {
        for index in 0..<TestSettings.iterations(3) {
            let seed = TestSettings.seed("enormous-\(format)", index)
            var generator = DocumentGenerator(random: SeededGenerator(seed: seed))
            generator.enormousFields = 1
            var document = generator.document(format)
            while document.bytes.count < 1 << 20 {
                generator.enormousFields = 1
                document = generator.document(format)
            }
            let chunkSize = [4096, 1 << 16, 1 << 20][index % 3]
            let events = format.read(
                document.bytes, chunkSize: chunkSize, bufferCapacity: 1 << 16,
                limit: document.bytes.count + 2)
            #expect(
                events.map(\.description) == document.expected.map(\.description),
                "\(format) seed \(seed), \(document.bytes.count) bytes")
        }
    }

    /// Nesting up to the parser's limit is read; one level more is a located error, not a stack
    /// overflow.
    @Test(arguments: [FuzzFormat.jsonArray, .ndjson], [true, false])
    func nestingIsReadUpToTheLimitAndRefusedBeyond(format: FuzzFormat, arrays: Bool) {
        // The record's object and, for a JSON array, the array around it are two levels.
        let outer = format == .jsonArray ? 2 : 1
        for depth in [
            JSONParser.defaultMaximumDepth - outer, JSONParser.defaultMaximumDepth - outer + 1,
            100_000,
        ] {
            let value = DocumentGenerator<SeededGenerator>.nested(depth: depth, arrays: arrays)
            let text =
                format == .jsonArray ? "[\n{\"deep\": \(value)}]\n" : "\n{\"deep\": \(value)}\n"
            let events = format.read(
                Array(text.utf8), chunkSize: 4096, bufferCapacity: 4096, limit: 10)
            if depth <= JSONParser.defaultMaximumDepth - outer {
                #expect(events.count == 1 && events.first?.isRecord == true, "depth \(depth)")
            } else {
                #expect(events.first?.failureLine == 2, "depth \(depth): \(events.prefix(2))")
            }
        }
    }
}

/// A random change to an input: a truncation, or bytes inserted, deleted, replaced or repeated.
struct Mutation {
    var bytes: [UInt8]
    /// The first offset at which `bytes` differs from the original.
    var offset: Int
    var summary: String

    /// Bytes that mean something to one reader or another, or are invalid UTF-8.
    static let pieces: [[UInt8]] = [
        [0x22], [0x22, 0x22], [0x2C], [0x09], [0x0A], [0x0D], [0x0D, 0x0A], [0x00], [0x5C],
        [0x5C, 0x75], [0x5C, 0x75, 0x44, 0x38, 0x30, 0x30], [0x7B], [0x7D], [0x5B], [0x5D],
        [0x3A], [0x20], [0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0x80],
        [0xF4, 0x90, 0x80, 0x80], [0xEF, 0xBB, 0xBF], [0x80], Array("null".utf8), Array("1e".utf8),
    ]

    static func random(of original: [UInt8], using random: inout some RandomNumberGenerator)
        -> Mutation
    {
        var bytes = original
        var offset = Int.max
        var steps: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let position = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                bytes.removeSubrange(position...)
                steps.append("truncated at \(position)")
            case 1, 2:
                let piece =
                    random.chance(0.8)
                    ? random.pick(pieces) : [UInt8.random(in: 0...255, using: &random)]
                bytes.insert(contentsOf: piece, at: position)
                steps.append("inserted \(piece) at \(position)")
            case 3:
                let end = min(bytes.count, position + Int.random(in: 1...4, using: &random))
                bytes.removeSubrange(position..<end)
                steps.append("deleted \(position)..<\(end)")
            case 4:
                guard position < bytes.count else { continue }
                bytes[position] = random.pick(pieces)[0]
                steps.append("replaced byte \(position)")
            default:
                let start = Int.random(in: 0...position, using: &random)
                bytes.insert(contentsOf: bytes[start..<position], at: position)
                steps.append("repeated \(start)..<\(position)")
            }
            offset = min(offset, position)
        }
        return Mutation(bytes: bytes, offset: offset, summary: steps.joined(separator: ", "))
    }
}

/// What any reading of any input must satisfy.
enum ReadInvariants {
    /// The broken promises, empty when there are none:
    /// - the reader made progress (fewer events than bytes);
    /// - it starts with `expectedPrefix`, the records before the first changed byte;
    /// - events come in the order of their lines;
    /// - every error names a line of the input, and a column on that line (or just past it).
    static func problems(
        in events: [ReadEvent], of bytes: [UInt8], format: FuzzFormat, expectedPrefix: [ReadEvent]
    ) -> [String] {
        var problems: [String] = []
        if events.count > bytes.count + 1 {
            problems.append("no progress: \(events.count) events from \(bytes.count) bytes")
        }
        let prefix = events.prefix(expectedPrefix.count).map(\.description)
        if prefix != expectedPrefix.map(\.description) {
            problems.append("the records before the change differ: expected \(expectedPrefix)")
        }
        let lines = format.lines(of: bytes)
        var previousLine = 1
        for event in events {
            let (line, column): (Int, Int?) =
                switch event {
                case .record(let line, _, _): (line, nil)
                case .failure(let error): (error.line, error.column)
                }
            if line < previousLine { problems.append("line \(line) after line \(previousLine)") }
            previousLine = line
            guard (1...lines.count).contains(line) else {
                problems.append("\(event) is not on one of the \(lines.count) lines")
                continue
            }
            if let column, !(1...(lines[line - 1].count + 1)).contains(column) {
                problems.append("\(event): line \(line) has \(lines[line - 1].count) bytes")
            }
        }
        return problems
    }
}

extension ReadEvent {
    var isRecord: Bool {
        if case .record = self { true } else { false }
    }

    var failureLine: Int? {
        if case .failure(let error) = self { error.line } else { nil }
    }
}
