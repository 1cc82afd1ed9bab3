import Testing
@testable import FTSearchKit
@testable import ftsearch

@Suite struct SearchScreenRendererTests {
    typealias F = ScreenFixtures

    private func lines(_ screen: SearchScreen) -> [String] {
        SearchScreenRenderer.grid(for: screen).lines
    }

    @Test func historyAt80By24() {
        let screen = F.screen(typing: "", receiving: F.listing("", past: F.history))
        let grid = SearchScreenRenderer.grid(for: screen)
        #expect(grid.width == 80 && grid.height == 24)
        #expect(
            Array(grid.lines.prefix(6)) == [
                ">",
                "  3 past searches      Enter use  ^D delete  Tab complete  ^G sections  Esc quit",
                "> ann                               past search                       10 results",
                "  zoe                               past search                        3 results",
                "  ann mül                           past search                        2 results",
                "",
            ])
        #expect(grid.lines.dropFirst(5).allSatisfy { $0.isEmpty })
        #expect(grid.cursor.row == 0 && grid.cursor.column == 2)
    }

    @Test func resultsAt80By24() {
        let screen = F.screen(
            typing: "ann",
            receiving: F.listing("ann", past: [F.history[2]], results: F.annResults, total: 10))
        #expect(
            Array(lines(screen).prefix(8)) == [
                "> ann",
                "  10 matches                   Enter choose  Tab complete  ^G sections  Esc quit",
                "  ann mül                           past search                        2 results",
                "> Ann Smith                         Annex Ltd                           person 1",
                "  Ann-Marie Duff                    National Theatre                   person 14",
                "  Annette Dubois                    Crédit Agricole                     person 3",
                "  Mary Smith-Jones                  Annex Ltd                           person 7",
                "",
            ])
        let cursor = SearchScreenRenderer.grid(for: screen).cursor
        #expect(cursor.row == 0 && cursor.column == 5)
    }

    @Test func noMatchesShowsTheCorrection() {
        var listing = F.listing("smiht")
        listing.didYouMean = "smith"
        let screen = F.screen(typing: "smiht", receiving: listing)
        #expect(lines(screen)[1].hasPrefix("  no matches; did you mean smith?"))
    }

    @Test func staleListShowsAnEllipsisAfterTheCount() {
        var screen = F.screen(typing: "an", receiving: F.listing("an", results: F.annResults))
        _ = screen.handle(.text("n"))
        #expect(lines(screen)[1].hasPrefix("  4 matches …"))
        #expect(lines(screen)[0] == "> ann")
    }

    @Test func sectionsByCompanyHaveTitles() {
        var screen = F.screen(typing: "an", receiving: F.listing("an", results: F.annResults))
        _ = screen.handle(.control("g"))
        #expect(
            lines(screen).prefix(9).map { String($0.prefix(40)).trimmingTrailingSpaces } == [
                "> an",
                "  4 matches  (sections by company)",
                "  Annex Ltd",
                ">   Ann Smith",
                "    Mary Smith-Jones",
                "  Crédit Agricole",
                "    Annette Dubois",
                "  National Theatre",
                "    Ann-Marie Duff",
            ])
    }

    @Test func longAndWideNamesAreCutToTheirColumn() {
        let long = F.result(
            9, "Bartholomew-Maximilian", "Featherstonehaugh-Cholmondeley", "山田太郎商事株式会社東京本社営業部")
        let screen = F.screen(typing: "b", receiving: F.listing("b", results: [long]))
        let row = lines(screen)[2]
        #expect(row.hasPrefix("> Bartholomew-Maximilian Featherst…  山田太郎商事株式会社東京本社営業…"))
        #expect(row.displayWidth <= 80)
        #expect(row.hasSuffix("person 9"))
    }

    @Test func narrowTerminalDropsTheRightColumnAndCuts() {
        var screen = F.screen(typing: "ann", receiving: F.listing("ann", results: F.annResults))
        _ = screen.resize(to: .init(width: 30, height: 6))
        let grid = SearchScreenRenderer.grid(for: screen)
        #expect(grid.lines.allSatisfy { $0.displayWidth <= 30 })
        #expect(grid.lines[2] == "> Ann Smith      Annex Ltd")
        #expect(grid.lines.count == 6)
        #expect(grid.lines[5] == "  Mary Smith-J…  Annex Ltd")
    }

    @Test func longQueryKeepsTheCursorOnScreen() {
        var screen = SearchScreen(size: .init(width: 20, height: 5))
        _ = screen.start()
        _ = screen.handle(.text("abcdefghijklmnopqrstuvwxyz"))
        let grid = SearchScreenRenderer.grid(for: screen)
        #expect(grid.lines[0] == "> …klmnopqrstuvwxyz")
        #expect(grid.cursor.column == 19)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var line = self
        while line.last == " " { line.removeLast() }
        return line
    }
}
