import Testing
@testable import FTSearchKit
@testable import ftsearch

/// Results and listings for screen tests.
enum ScreenFixtures {
    static func result(_ id: Int64, _ first: String, _ last: String, _ company: String)
        -> SearchScreen.ListedResult
    {
        SearchScreen.ListedResult(
            hit: SearchHit(
                record: .person(Person(id: id, firstName: first, lastName: last, company: company)),
                score: Double(10 - id), wholeTokenMatches: 1))
    }

    static let annResults = [
        result(1, "Ann", "Smith", "Annex Ltd"), result(14, "Ann-Marie", "Duff", "National Theatre"),
        result(3, "Annette", "Dubois", "Crédit Agricole"),
        result(7, "Mary", "Smith-Jones", "Annex Ltd"),
    ]

    static let history = [
        SearchScreen.PastSearch(text: "ann", resultCount: 10),
        SearchScreen.PastSearch(text: "zoe", resultCount: 3),
        SearchScreen.PastSearch(text: "ann mül", resultCount: 2),
    ]

    static func listing(
        _ text: String, past: [SearchScreen.PastSearch] = [],
        results: [SearchScreen.ListedResult] = [], total: Int? = nil
    ) -> SearchScreen.Listing {
        SearchScreen.Listing(
            text: text, pastSearches: past, results: results, total: total ?? results.count)
    }

    /// A screen at 80×24 that typed `text` and received `listing`.
    static func screen(typing text: String, receiving listing: SearchScreen.Listing)
        -> SearchScreen
    {
        var screen = SearchScreen(size: .init(width: 80, height: 24))
        _ = screen.start()
        if !text.isEmpty { _ = screen.handle(.text(text)) }
        screen.receive(listing)
        return screen
    }
}

@Suite struct SearchScreenTests {
    typealias F = ScreenFixtures

    @Test func startsWithTheHistory() {
        var screen = SearchScreen(size: .init(width: 80, height: 24))
        #expect(
            screen.start() == [.search(.init(text: "", resultLimit: 22, pastSearchLimit: 22))])
    }

    @Test func everyKeystrokeSearchesTheWholeText() {
        var screen = SearchScreen(size: .init(width: 80, height: 24))
        _ = screen.start()
        #expect(
            screen.handle(.text("a")) == [
                .search(.init(text: "a", resultLimit: 22, pastSearchLimit: 3))
            ])
        #expect(
            screen.handle(.text("n")) == [
                .search(.init(text: "an", resultLimit: 22, pastSearchLimit: 3))
            ])
        #expect(
            screen.handle(.backspace) == [
                .search(.init(text: "a", resultLimit: 22, pastSearchLimit: 3))
            ])
        #expect(screen.handle(.left) == [])
        #expect(screen.handle(.backspace) == [])  // nothing before the cursor
    }

    @Test func newTextSelectsTheTopResultBelowPastSearches() {
        let screen = F.screen(
            typing: "an", receiving: F.listing("an", past: [F.history[0]], results: F.annResults))
        #expect(screen.selection == 1)
        #expect(screen.selectedItem == .result(F.annResults[0]))
        #expect(!screen.isStale)
    }

    @Test func listStaysUntilTheNewTextsResultsArrive() {
        var screen = F.screen(typing: "an", receiving: F.listing("an", results: F.annResults))
        _ = screen.handle(.text("n"))
        #expect(screen.isStale)
        #expect(screen.listing?.text == "an")
        screen.receive(F.listing("ann", results: Array(F.annResults.prefix(2))))
        #expect(!screen.isStale)
        #expect(screen.items.count == 2)
    }

    @Test func upAndDownMoveWithinTheList() {
        var screen = F.screen(typing: "an", receiving: F.listing("an", results: F.annResults))
        _ = screen.handle(.down)
        _ = screen.handle(.control("n"))
        #expect(screen.selection == 2)
        _ = screen.handle(.control("p"))
        _ = screen.handle(.up)
        _ = screen.handle(.up)
        #expect(screen.selection == 0)
        _ = screen.handle(.pageDown)
        #expect(screen.selection == 3)
    }

    @Test func enterOnAResultChoosesItWithItsSearch() {
        var screen = F.screen(
            typing: "an", receiving: F.listing("an", results: F.annResults, total: 40))
        _ = screen.handle(.down)
        #expect(
            screen.handle(.enter) == [
                .finish(.chosen(F.annResults[1].hit, query: "an", total: 40))
            ])
    }

    @Test func enterOnAPastSearchPutsItInTheQueryLine() {
        var screen = F.screen(typing: "", receiving: F.listing("", past: F.history))
        _ = screen.handle(.down)
        let effects = screen.handle(.enter)
        #expect(screen.query.text == "zoe")
        #expect(effects == [.search(.init(text: "zoe", resultLimit: 22, pastSearchLimit: 3))])
    }

    @Test func controlDDeletesTheSelectedPastSearchOnly() {
        var screen = F.screen(typing: "", receiving: F.listing("", past: F.history))
        _ = screen.handle(.down)
        let effects = screen.handle(.control("d"))
        #expect(
            effects == [
                .deletePastSearch("zoe"),
                .search(.init(text: "", resultLimit: 22, pastSearchLimit: 22)),
            ])
        #expect(screen.items == [.pastSearch(F.history[0]), .pastSearch(F.history[2])])
        #expect(screen.selection == 1)

        var results = F.screen(typing: "an", receiving: F.listing("an", results: F.annResults))
        #expect(results.handle(.control("d")) == [])
        #expect(results.items.count == 4)
    }

    @Test func controlGShowsSectionsByCompanyKeepingTheSelection() {
        var screen = F.screen(typing: "an", receiving: F.listing("an", results: F.annResults))
        _ = screen.handle(.down)  // Ann-Marie Duff, National Theatre
        _ = screen.handle(.control("g"))
        #expect(screen.groupsByCompany)
        #expect(
            screen.rows == [
                .section("Annex Ltd"), .item(0), .item(1), .section("Crédit Agricole"), .item(2),
                .section("National Theatre"), .item(3),
            ])
        #expect(screen.selectedItem == .result(F.annResults[1]))
        _ = screen.handle(.control("g"))
        #expect(!screen.groupsByCompany)
        #expect(screen.selectedItem == .result(F.annResults[1]))
    }

    @Test func controlUClearsTheLine() {
        var screen = F.screen(typing: "ann", receiving: F.listing("ann", results: F.annResults))
        #expect(
            screen.handle(.control("u")) == [
                .search(.init(text: "", resultLimit: 22, pastSearchLimit: 22))
            ])
        #expect(screen.query.text == "")
        #expect(screen.handle(.control("u")) == [])
    }

    @Test(arguments: [Key.escape, .control("c")])
    func escapeAndControlCCancel(key: Key) {
        var screen = F.screen(typing: "an", receiving: F.listing("an", results: F.annResults))
        #expect(screen.handle(key) == [.finish(.cancelled)])
    }

    @Test func tabCompletesWithTheTopSuggestionForTheSameText() {
        var screen = F.screen(typing: "an", receiving: F.listing("an", results: F.annResults))
        #expect(screen.handle(.tab) == [.suggest("an")])
        #expect(screen.complete("a", with: "anakin") == [])  // the line moved on meanwhile
        #expect(screen.complete("an", with: "an") == [])
        #expect(
            screen.complete("an", with: "annex")
                == [.search(.init(text: "annex", resultLimit: 22, pastSearchLimit: 3))])
        #expect(screen.query.text == "annex")
        #expect(screen.query.cursor == 5)
    }

    @Test func pagingNearTheEndFetchesMore() {
        let many = (1...44).map { F.result(Int64($0), "Ann\($0)", "Smith", "") }
        var screen = F.screen(typing: "an", receiving: F.listing("an", results: many, total: 100))
        #expect(
            screen.handle(.pageDown) == [
                .search(.init(text: "an", resultLimit: 66, pastSearchLimit: 3))
            ])
        #expect(screen.selection == 22)
        #expect(screen.scrollTop == 1)
        let done = F.screen(typing: "an", receiving: F.listing("an", results: many, total: 44))
        var copy = done
        #expect(copy.handle(.pageDown) == [])
    }

    @Test func resizeTallerFetchesEnoughToFillTheList() {
        var screen = F.screen(typing: "an", receiving: F.listing("an", results: F.annResults))
        #expect(screen.resize(to: .init(width: 100, height: 20)) == [])
        #expect(
            screen.resize(to: .init(width: 100, height: 40))
                == [.search(.init(text: "an", resultLimit: 38, pastSearchLimit: 3))])
        #expect(screen.listHeight == 38)
    }

    @Test func editingKeysWorkAtTheCursor() {
        var line = QueryLine()
        line.insert("ann mül")
        line.moveCursor(by: -4)
        line.insert("a")
        #expect(line.text == "anna mül")
        let deletedWord = line.deleteWordBackward()
        #expect(deletedWord)
        #expect(line.text == " mül")
        line.moveCursor(toEnd: true)
        line.insert("\u{0308}")  // a combining mark joins the letter before it
        #expect(line.text == " mül\u{0308}")
        #expect(line.cursor == line.text.count)
        line.moveCursor(toEnd: false)
        let deletedCharacter = line.deleteForward()
        #expect(deletedCharacter)
        #expect(line.text == "mül\u{0308}")
    }
}

/// Ctrl-F: the filter line, its searches and what the status line shows of it.
@Suite struct SearchScreenFilterTests {
    typealias F = ScreenFixtures

    @Test func controlFEditsTheFilterAndEveryChangeSearchesWithIt() {
        var screen = SearchScreen(size: .init(width: 80, height: 24))
        _ = screen.start(with: "ann")
        #expect(screen.handle(.control("f")).isEmpty)
        #expect(screen.editsFilter)
        #expect(
            screen.handle(.text("a")) == [
                .search(.init(text: "ann", resultLimit: 22, pastSearchLimit: 3, filter: "a"))
            ])
        #expect(screen.query.text == "ann" && screen.filter.text == "a")
        #expect(screen.handle(.enter).isEmpty)
        #expect(!screen.editsFilter)
        #expect(
            screen.handle(.text("e")) == [
                .search(.init(text: "anne", resultLimit: 22, pastSearchLimit: 3, filter: "a"))
            ])
        _ = screen.handle(.control("f"))
        #expect(
            screen.handle(.control("u")) == [
                .search(.init(text: "anne", resultLimit: 22, pastSearchLimit: 3))
            ])
        #expect(screen.handle(.escape).isEmpty && !screen.editsFilter)
        #expect(screen.handle(.escape) == [.finish(.cancelled)])
    }

    @Test func theStatusLineShowsTheFilterAndTheTopCompanies() {
        var screen = SearchScreen(size: .init(width: 120, height: 10))
        _ = screen.start(with: "ann")
        _ = screen.handle(.control("f"))
        for character in "age > 3" { _ = screen.handle(.text(String(character))) }
        var listing = F.listing("ann", results: F.annResults, total: 4)
        listing.filter = "age > 3"
        listing.companies = [
            FacetValue(value: "Annex Ltd", count: 2),
            FacetValue(value: "Crédit Agricole", count: 1),
        ]
        screen.receive(listing)
        let editing = SearchScreenRenderer.grid(for: screen).lines
        #expect(editing[0] == "filter> age > 3")
        _ = screen.handle(.enter)
        let lines = SearchScreenRenderer.grid(for: screen).lines
        #expect(lines[0] == "> ann")
        #expect(lines[1].hasPrefix("  4 matches  filter: age > 3  Annex Ltd 2, Crédit Agricole 1"))
        listing.filterError = "filter: expected a value after '>' at column 6"
        screen.receive(listing)
        #expect(
            SearchScreenRenderer.grid(for: screen).lines[1].hasPrefix(
                "  filter: expected a value after '>' at column 6"))
    }
}
