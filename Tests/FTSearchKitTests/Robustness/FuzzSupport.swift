import Foundation

/// A small, fast, seeded generator (SplitMix64), so that every fuzz run can be replayed from the
/// seed it prints.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// How the robustness suites are sized and seeded, from the environment:
///
/// - `FTSEARCH_STRESS_ITERATIONS`: a multiplier of every iteration count, such as `10` or `10x`
///   (default 1; `scripts/stress` sets it);
/// - `FTSEARCH_FUZZ_SEED`: the base seed (default a fixed one, so `scripts/test` is
///   deterministic); a failure message prints the seed of the failing case.
enum FuzzSettings {
    static let scale: Int = {
        let raw = ProcessInfo.processInfo.environment["FTSEARCH_STRESS_ITERATIONS"] ?? "1"
        let digits = raw.lowercased().hasSuffix("x") ? String(raw.dropLast()) : raw
        return max(1, Int(digits) ?? 1)
    }()

    static let baseSeed: UInt64 = {
        ProcessInfo.processInfo.environment["FTSEARCH_FUZZ_SEED"].flatMap { UInt64($0) }
            ?? 0x5EED_F75E_A2C4
    }()

    /// `count` scaled by `FTSEARCH_STRESS_ITERATIONS`.
    static func iterations(_ count: Int) -> Int { count * scale }

    /// The seed of case `index` of the suite `name`, stable across runs for one base seed.
    static func seed(_ name: String, _ index: Int) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return baseSeed ^ hash ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
    }
}

/// Keeps the inputs that made a fuzz case fail, so that they can be added to
/// `Fixtures/fuzz-regressions/` and replayed by ``FuzzRegressionTests`` for ever.
enum FailedInputs {
    static let directory = NSTemporaryDirectory() + "ftsearch-fuzz-failures"

    /// Writes `bytes` to `name` in ``directory`` and returns the path, for the failure message.
    static func keep(_ bytes: [UInt8], name: String) -> String {
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}

extension RandomNumberGenerator {
    /// A random element of `elements`, which must not be empty.
    mutating func pick<T>(_ elements: [T]) -> T {
        elements[Int.random(in: 0..<elements.count, using: &self)]
    }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }
}

/// Pieces of text that break naive parsers and tokenizers: every kind of separator, quote,
/// escape, control character, combining mark, emoji, right-to-left script and non-character.
enum HostileText {
    static let pieces: [String] = [
        "a", "Ann", "zoë", "Zoë", "ZOE", "e\u{301}", "\u{301}", "\u{300}\u{301}", "ß", "İ", "ı",
        "ø", "Ø", "ł", "æ", "ﬁ", "Ⅻ", "①", "٣", "२", "𝔘", "日本", "中", "한국", "ไทย",
        "שלום", "مرحبا", "\u{200F}", "\u{200E}", "\u{202E}", "\u{200B}", "\u{200D}", "\u{FEFF}",
        "😀", "👩‍👩‍👧", "🇫🇷", "🏳️‍🌈", "\u{E000}", "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}",
        "\u{0}", "\u{1}", "\u{7F}", "\u{85}", "\u{2028}", "\u{2029}", "\t", "\n", "\r", "\r\n",
        " ", "  ", "\u{A0}", "\u{3000}", ",", ";", "\"", "\"\"", "'", "`", "\\", "\\\"", "*",
        "-", "+", ":", "^", "(", ")", "{", "}", "[", "]", "AND", "OR", "NOT", "NEAR", "NEAR/2",
        "and", "or", "not", "near", "%", "_", "?", "!", ".", "/", "#", "@", "$", "&", "|", "<", ">",
        "=", "~", "0", "1", "42", "3.14", "-1", "1e9", "x*", "\"x\"", "-x", "^x", "a:b", "(a OR b)",
    ]

    /// A random string of 0 to `maximumPieces` hostile pieces.
    static func random(using generator: inout some RandomNumberGenerator, maximumPieces: Int = 6)
        -> String
    {
        let count = Int.random(in: 0...maximumPieces, using: &generator)
        return (0..<count).map { _ in generator.pick(pieces) }.joined()
    }
}
