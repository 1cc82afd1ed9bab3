import Testing

@testable import ftsearch

@Suite struct TextHelperTests {
    @Test(arguments: [
        ("limit", "limit"), ("noHistory", "no-history"), ("outputURL", "output-url"),
        ("URLPath", "url-path"), ("HistoryDelete", "history-delete"), ("sha256Sum", "sha256-sum"),
        ("snake_case", "snake-case"),
    ])
    func kebabCase(identifier: String, expected: String) {
        #expect(identifier.convertedToKebabCase == expected)
    }

    @Test func editDistanceCountsSingleCharacterEdits() {
        #expect(editDistance("", "abc") == 3)
        #expect(editDistance("--limt", "--limit") == 1)
        #expect(editDistance("kitten", "sitting") == 3)
        #expect(editDistance("same", "same") == 0)
    }

    @Test func closestMatchIgnoresFarCandidates() {
        #expect(closestMatch(to: "--limt", among: ["--kind", "--limit"]) == "--limit")
        #expect(closestMatch(to: "--verbose", among: ["--kind", "--limit"]) == nil)
    }

    @Test func wrappingKeepsWordsWholeAndIndents() {
        #expect("aaa bbb ccc".wrapped(to: 7) == "aaa bbb\nccc")
        #expect("aaa bbb ccc".wrapped(to: 9, indent: 2) == "  aaa bbb\n  ccc")
        #expect("one\n\ntwo".wrapped(to: 80, indent: 4) == "    one\n\n    two")
        #expect("averyveryverylongword x".wrapped(to: 5) == "averyveryverylongword\nx")
    }

    @Test(arguments: ["-1", "-0.5", "-.5", "-1e3"])
    func negativeNumbersAreNotOptions(token: String) {
        #expect(!token.isOptionLike)
        #expect(token.canBeOptionValue)
    }

    @Test(arguments: ["-l", "--limit", "-inf", "-e3", "--"])
    func optionLikeTokensAreNotValues(token: String) {
        #expect(!token.canBeOptionValue)
    }
}
