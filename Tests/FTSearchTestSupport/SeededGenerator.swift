import Foundation

/// A small, fast, seeded generator (SplitMix64), so that every randomized test can be replayed
/// from its seed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// How the randomized and robustness suites are sized and seeded, from the environment:
///
/// - `FTSEARCH_STRESS_ITERATIONS`: a multiplier of every iteration count, such as `10` or `10x`
///   (default 1; `scripts/stress` sets it);
/// - `FTSEARCH_FUZZ_SEED`: the base seed (default a fixed one, so `scripts/test` is
///   deterministic); a failure message prints the seed of the failing case.
public enum TestSettings {
    /// The multiplier of every iteration count.
    public static let scale: Int = {
        let raw = ProcessInfo.processInfo.environment["FTSEARCH_STRESS_ITERATIONS"] ?? "1"
        let digits = raw.lowercased().hasSuffix("x") ? String(raw.dropLast()) : raw
        return max(1, Int(digits) ?? 1)
    }()

    /// The base seed.
    public static let seed: UInt64 = {
        ProcessInfo.processInfo.environment["FTSEARCH_FUZZ_SEED"].flatMap { UInt64($0) }
            ?? 0x5EED_F75E_A2C4
    }()

    /// `count` scaled by `FTSEARCH_STRESS_ITERATIONS`.
    public static func iterations(_ count: Int) -> Int { count * scale }

    /// The seed of case `index` of the suite `name`, stable across runs for one base seed.
    public static func seed(_ name: String, _ index: Int) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return seed ^ hash ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
    }
}
