import Testing
import FTSearchTestSupport

@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// Text holding NUL characters is stored and compared whole, not cut at the first NUL (found by
/// ``QueryFuzzTests``: history entries of `"NO\t{\0"` came back as `"NO\t{"`).
@Suite struct TextWithNULTests {
    @Test func boundTextKeepsEveryByte() throws {
        let database = try Database(path: ":memory:")
        let text = try database.fetchText(sql: "SELECT ?", arguments: ["a\u{0}b\u{0}"])
        #expect(text == "a\u{0}b\u{0}")
        #expect(
            try database.fetchInt(sql: "SELECT length(CAST(? AS BLOB))", arguments: ["a\u{0}b"])
                == 3)
    }

    @Test func historyKeepsTextWithNULAndSuggestsIt() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        let history = try index.history
        try history.record("NO\t{\u{0}x", kinds: .all, resultCount: 1)
        try history.record("NO {", kinds: .all, resultCount: 1)
        #expect(Set(try history.entries().map(\.text)) == ["NO {", "NO\t{\u{0}x"])
        let suggestions = try index.suggestions(
            forPrefix: "no {\u{0}", options: SuggestionOptions(sources: [.history]))
        #expect(suggestions.map(\.text) == ["NO\t{\u{0}x"])
    }
}
