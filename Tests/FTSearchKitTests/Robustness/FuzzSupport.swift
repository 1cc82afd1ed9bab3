import FTSearchTestSupport
import Foundation

/// Keeps the inputs that made a fuzz case fail, so that they can be added to
/// `Fixtures/fuzz-regressions/` and replayed by ``FuzzRegressionTests`` for ever.
enum FailedInputs {
    static let directory = NSTemporaryDirectory() + "ftsearch-fuzz-failures"

    /// Writes `bytes` to `name` in ``directory`` and returns the path, for the failure message.
    static func keep(_ bytes: [UInt8], name: String) -> String {
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
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
