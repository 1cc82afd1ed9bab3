import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// `SearchIndex.foldedWords(in:)`: the words of a text as a search folds them, checked against
/// what a search finds, so a caller comparing folded words agrees with the index.
@Suite struct FoldedWordsTests {
    @Test func foldsCaseAccentsAndLettersAndSplitsOnPunctuation() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex(path: directory.file("db.sqlite"))
        #expect(try index.foldedWords(in: "Zoë Ødegaard") == ["zoe", "odegaard"])
        #expect(try index.foldedWords(in: "Smith & Sons, Inc.") == ["smith", "sons", "inc"])
        #expect(try index.foldedWords(in: "Straße") == ["strasse"])
        #expect(try index.foldedWords(in: " \t!? ") == [])
    }

    @Test func aFoldedWordFindsTheRecordThatHoldsIt() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex(path: directory.file("db.sqlite"))
        _ = try index.insert(Person(firstName: "Łukasz", lastName: "Wiśniewski", company: ""))
        for word in try index.foldedWords(in: "Łukasz Wiśniewski") {
            let results = try index.search(SearchRequest(text: word, match: .exact))
            #expect(results.total == 1, "\(word)")
        }
    }
}
