import Testing

@testable import ftsearch

@Suite struct SearchTextCompletionTests {
    @Test(arguments: [
        ("anna", "anna"), ("\"anna m", "anna m"), ("'anna m", "anna m"), ("anna\\ m", "anna m"),
        ("\"o'br", "o'br"), ("'say \"hi\"'", "say \"hi\""), ("\"a\\\"b\"", "a\"b"), ("", ""),
    ])
    func wordsAreReadAsTheShellReadsThem(word: String, text: String) {
        #expect(SearchTextCompletion.shellUnquoted(word) == text)
    }

    @Test func theLastDatabaseOptionWins() {
        #expect(SearchTextCompletion.databaseOption(in: ["ftsearch", "query", "an"]) == nil)
        #expect(
            SearchTextCompletion.databaseOption(in: ["ftsearch", "query", "--db", "a.db", "an"])
                == "a.db")
        #expect(
            SearchTextCompletion.databaseOption(in: ["ftsearch", "--db=a.db", "query", "--db", "b"])
                == "b")
        #expect(SearchTextCompletion.databaseOption(in: ["ftsearch", "query", "--db"]) == nil)
    }
}
