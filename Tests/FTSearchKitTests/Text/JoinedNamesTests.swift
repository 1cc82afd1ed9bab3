import FTSearchTestSupport
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit

/// Chinese, Japanese and Korean full names typed without a space, last name first or first
/// name first (see ``JoinedNames``): each found nothing before, in every match mode.
@Suite struct JoinedNamesTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    // Real names of the corpus's Chinese, Japanese and Korean locales (first, last, company).
    static let people = [
        ("晓明", "刘", ""), ("晓东", "刘", ""), ("德华", "刘", "晓明科技"), ("晓明", "王", ""),
        ("花子", "佐藤", ""), ("健", "佐藤", ""), ("花子", "鈴木", ""),
        ("나경", "임", ""), ("나연", "임", ""), ("나경", "김", ""),
        ("Ann", "Lee", "Hanwha"),
    ]

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        try index.importPeople(Self.people)
    }

    private func names(_ text: String, match: MatchMode = .prefix) throws -> [String] {
        let request = SearchRequest(text: text, kinds: .all, match: match)
        let results = try index.search(request)
        #expect(results == (try index.referenceSearch(request)))
        return results.hits.map { $0.record[field: "last_name"]! + $0.record[field: "first_name"]! }
    }

    @Test(arguments: [
        // Last name and first name written together, and first name first.
        ("刘晓明", ["刘晓明", "刘德华"]), ("晓明刘", ["刘晓明", "刘德华"]),
        ("佐藤花子", ["佐藤花子"]), ("花子佐藤", ["佐藤花子"]),
        ("임나경", ["임나경"]), ("나경임", ["임나경"]),
        // As the name is being typed: the last name and the first name's start.
        ("刘晓", ["刘晓东", "刘晓明", "刘德华"]), ("임나", ["임나경", "임나연"]),
    ])
    func aFullNameWithoutASpaceFindsThePersonFirst(text: String, expected: [String]) throws {
        #expect(try names(text) == expected)
    }

    @Test(arguments: [MatchMode.exact, .fuzzy, .substring])
    func everyMatchModeFindsTheJoinedName(match: MatchMode) throws {
        #expect(try names("刘晓明", match: match).first == "刘晓明")
        #expect(try names("임나경", match: match) == ["임나경"])
    }

    /// A word that starts a word of the index stays one word: `晓明` finds the first names
    /// and the company it starts, `佐藤` the last names; a one-letter word is never split.
    @Test func aWordTheIndexHoldsStaysOneWord() throws {
        #expect(try names("晓明") == ["刘晓明", "王晓明", "刘德华"])
        #expect(try names("佐藤") == ["佐藤健", "佐藤花子"])
        #expect(try names("刘") == ["刘晓东", "刘晓明", "刘德华"])
        // No two names of a record: nothing, as before.
        #expect(try names("刘王") == [])
    }

    @Test func onlyHanKanaAndHangulWordsAreSplit() {
        #expect(JoinedNames.isJoinedNameLetter("刘"))
        #expect(JoinedNames.isJoinedNameLetter("さ"))
        #expect(JoinedNames.isJoinedNameLetter("ナ"))
        #expect(JoinedNames.isJoinedNameLetter("경"))
        #expect(!JoinedNames.isJoinedNameLetter("a"))
        #expect(!JoinedNames.isJoinedNameLetter("ж"))
        var asked: [String] = []
        let halves = JoinedNames.halves(of: "annlee") {
            asked.append($0); return true
        }
        #expect(halves == nil && asked.isEmpty)
    }
}
