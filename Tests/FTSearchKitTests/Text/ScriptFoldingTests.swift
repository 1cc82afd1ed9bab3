import FTSearchSQLite
import FTSearchTestSupport
import Foundation
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// Folding in every script, measured against sources that are not ftsearch's own table: the
/// published transliterations of every Latin letter (ICU's Latin-ASCII and Unidecode, in
/// `Resources/folding/latin-letters.tsv`), and Foundation's canonical decomposition for the
/// Greek and Cyrillic letters. Each is searched for in both directions, through a real index.
@Suite struct ScriptFoldingTests {
    /// A Latin letter and how a published table transliterates it.
    struct Transliteration: CustomStringConvertible, Sendable {
        var letter: String
        var ascii: String
        var description: String {
            "\(letter) (U+\(String(letter.unicodeScalars.first!.value, radix: 16, uppercase: true))) → \(ascii)"
        }
    }

    /// The reference's Latin letters that `column` (2: ICU, 3: Unidecode) maps to one or two
    /// ASCII letters.
    static func transliterations(column: Int) throws -> [Transliteration] {
        let file = ConformanceSuite.resources + "/folding/latin-letters.tsv"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        return text.split(separator: "\n").dropFirst(2).compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4 else { return nil }
            let ascii = String(fields[column])
            guard (1...2).contains(ascii.count),
                ascii.allSatisfy({ $0.isASCII && $0.isLetter })
            else { return nil }
            return Transliteration(letter: String(fields[1]), ascii: ascii)
        }
    }

    /// The share of `pairs` found both ways: a record holding the letter found by a search
    /// typed with its transliteration, and a record holding the transliteration found by a
    /// search typed with the letter. Returns the ones that were not.
    static func coverage(of pairs: [(String, String)]) throws -> (
        share: Double, missed: [String]
    ) {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        // Each pair gets two records of its own: "<letter>vq<n>x", to be found by
        // "<ascii>vq<n>x", and "<ascii>vq<n>y", to be found by "<letter>vq<n>y".
        let tagged = pairs.enumerated().map { number, pair in
            (letter: "\(pair.0)vq\(number)", ascii: "\(pair.1)vq\(number)")
        }
        try index.importPeople(
            tagged.flatMap { [($0.letter + "x", "", ""), ($0.ascii + "y", "", "")] })
        var missed: [String] = []
        for (number, word) in tagged.enumerated() {
            let byASCII = try index.search(SearchRequest(text: word.ascii + "x", kinds: .people))
            let byLetter = try index.search(SearchRequest(text: word.letter + "y", kinds: .people))
            if byASCII.hits.map(\.record.displayName) != [word.letter + "x"]
                || byLetter.hits.map(\.record.displayName) != [word.ascii + "y"]
            {
                missed.append("\(pairs[number].0) → \(pairs[number].1)")
            }
        }
        return (Double(pairs.count - missed.count) / Double(pairs.count), missed)
    }

    @Test func latinLettersAreFoundByTheirICUTransliterationBothWays() throws {
        let pairs = try Self.transliterations(column: 2)
        #expect(pairs.count > 800)
        let result = try Self.coverage(of: pairs.map { ($0.letter, $0.ascii) })
        #expect(result.share >= 0.99, "missed: \(result.missed)")
    }

    @Test func latinLettersAreFoundByTheirUnidecodeTransliterationBothWays() throws {
        // A table ftsearch's is not made from (but for the few letters ICU leaves alone).
        // Where the two disagree (Ŋ: ng or n, Ʒ: zh or z), ICU's spelling is the one folded:
        // 7 of 923 letters, measured 2026-12-01.
        let pairs = try Self.transliterations(column: 3)
        #expect(pairs.count > 800)
        let result = try Self.coverage(of: pairs.map { ($0.letter, $0.ascii) })
        #expect(result.share >= 0.99, "missed: \(result.missed)")
    }

    /// Greek and Cyrillic letters whose canonical decomposition is a letter plus accents, with
    /// that letter in lowercase, as Foundation decomposes them.
    static let decomposedLetters: [(String, String)] = {
        let ranges: [ClosedRange<UInt32>] = [0x0370...0x03FF, 0x1F00...0x1FFF, 0x0400...0x052F]
        return ranges.flatMap { $0 }.compactMap { value in
            guard let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic,
                scalar.properties.generalCategory == .lowercaseLetter
                    || scalar.properties.generalCategory == .uppercaseLetter
                    || scalar.properties.generalCategory == .titlecaseLetter
            else { return nil }
            let letter = String(scalar)
            let decomposed = letter.decomposedStringWithCanonicalMapping.unicodeScalars
            guard decomposed.count > 1, let base = decomposed.first,
                decomposed.dropFirst().allSatisfy({
                    $0.properties.generalCategory == .nonspacingMark
                })
            else { return nil }
            return (letter, String(base).lowercased())
        }
    }()

    @Test func greekAndCyrillicLettersAreFoundWithoutTheirAccentsBothWays() throws {
        #expect(Self.decomposedLetters.count > 250)
        #expect(Self.decomposedLetters.contains { $0 == ("ё", "е") })
        #expect(Self.decomposedLetters.contains { $0 == ("ΐ", "ι") })
        let result = try Self.coverage(of: Self.decomposedLetters)
        #expect(result.missed.isEmpty, "missed: \(result.missed)")
    }

    @Test(arguments: [
        ("ελενη", "Ελένη"), ("παπαδοπουλου", "Παπαδοπούλου"), ("федор", "Фёдор"),
        ("елкин", "Ёлкин"), ("orjan", "Ǿrjan"), ("niillas", "Ŋiillas"), ("danjuma", "Ɗanjuma"),
        ("ǿrjan", "Orjan"), ("ŋiillas", "Niillas"), ("οδυσσευς", "ΟΔΥΣΣΕΥΣ"),
        ("οδυσσευσ", "Οδυσσεύς"), ("йошкар", "Иошкар"), ("dzemal", "Ǆemal"), ("ljubica", "ǈubica"),
        ("ebo", "Ɛbɔ"), ("kano", "Ƙano"), ("bello", "Ɓello"), ("faeroe", "Fǽroe"),
        ("ахмед", "Ахмед"), ("احمد", "أحمد"), ("федор", "Фе\u{308}дор"),
    ])
    func namesInEveryScriptAreFoundAsTheyAreTyped(typed: String, stored: String) throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople([(stored, "Vqx", ""), ("Other", "Vqx", "")])
        #expect(try index.names(for: typed) == ["\(stored) Vqx"])
        #expect(try index.names(for: String(typed.prefix(2))).contains("\(stored) Vqx"))
    }

    @Test(arguments: [
        ("Фёдор", "Федор"), ("Ελένη", "Ελενη"), ("Ǿrjan", "Orjan"), ("Ŋiillas", "Niillas"),
        ("أحمد", "احمد"),
    ])
    func aSearchTypedWithTheMarksRanksTheRecordsWithThemFirst(marked: String, plain: String)
        throws
    {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        // The plain spelling imported first and sorting first: only the accents can lift the
        // marked one above it.
        try index.importPeople([(plain, "Aaa", ""), (marked, "Aab", "")])
        #expect(try index.names(for: marked) == ["\(marked) Aab", "\(plain) Aaa"])
        #expect(try index.names(for: String(marked.prefix(3))).first == "\(marked) Aab")
        #expect(try index.names(for: plain).first == "\(plain) Aaa")
    }

    @Test func wordsWithCombiningSignsStayWhole() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        // Devanagari and Thai vowel signs, Arabic vowel points: one word each.
        for word in ["हिन्दी", "สมศักดิ์", "مُحَمَّد"] {
            #expect(try index.tokenizer.tokens(in: word).count == 1, "\(word)")
        }
        // Vowel points are accents (Arabic typed without them finds them); vowel signs are not.
        #expect(try index.tokenizer.tokens(in: "مُحَمَّد").map(\.text) == ["محمد"])
        #expect(try index.tokenizer.tokens(in: "हिन्दी").map(\.text) == ["हिन्दी"])
        // Kana voicing makes another syllable: が is not か.
        #expect(try index.tokenizer.tokens(in: "が").map(\.text) == ["が"])
        // A lone accent is no word.
        #expect(try index.tokenizer.tokens(in: "a \u{301} b").map(\.text) == ["a", "b"])
    }

    @Test func historyKeysAndSuggestionsFoldEveryScript() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.history.record("Фёдор Ёлкин", kinds: .all, resultCount: 1)
        try index.history.record("федор елкин", kinds: .all, resultCount: 1)
        let entries = try index.history.entries(limit: 10)
        #expect(entries.count == 1)
        #expect(entries.first?.useCount == 2)
        #expect(try index.suggestions(forPrefix: "фе").map(\.text) == ["федор елкин"])
    }
}
