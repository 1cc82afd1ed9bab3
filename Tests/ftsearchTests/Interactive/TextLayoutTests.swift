import Testing
@testable import ftsearch

@Suite struct TextLayoutTests {
    @Test(arguments: [
        ("Zoë", 3), ("Zoe\u{0308}", 3), ("山田", 4), ("ｱｲ", 2), ("Ｚｏｅ", 6), ("👩‍💻", 2),
        ("🇩🇪", 2), ("❤️", 2), ("Ødegaard", 8),
    ])
    func displayWidth(text: String, width: Int) {
        #expect(text.displayWidth == width)
    }

    @Test func shortTextIsKept() {
        #expect(StyledText("Ann Smith").truncated(toWidth: 9).text == "Ann Smith")
    }

    @Test func longTextIsCutWithAnEllipsis() {
        let cut = StyledText("Müller-Lüdenscheid GmbH").truncated(toWidth: 10)
        #expect(cut.text == "Müller-Lü…")
        #expect(cut.displayWidth == 10)
    }

    @Test func wideTextIsCutByColumnsNotCharacters() {
        let cut = StyledText("山田太郎商事株式会社").truncated(toWidth: 7)
        #expect(cut.text == "山田太…")
        #expect(cut.displayWidth == 7)
        // A wide character that would end one column past the edge is left out.
        #expect(StyledText("山田太郎").truncated(toWidth: 6).text == "山田…")
    }

    @Test func fittedTextIsPaddedToTheWidth() {
        #expect(StyledText("山田").fitted(toWidth: 6).text == "山田  ")
        #expect(StyledText("Ann").fitted(toWidth: 2).text == "A…")
    }

    @Test func controlCharactersShowAsSpaces() {
        #expect(StyledText("Multi\r\nLine\tFilms").text == "Multi Line Films")
    }

    @Test func matchesAreStyledAndTheEllipsisIsNot() {
        let text = StyledText("Annabelle", matches: [0..<3]).truncated(toWidth: 3)
        #expect(text.characters.map(\.style) == [.match, .match, []])
        #expect(text.text == "An…")
    }

    @Test func gridKeepsWideCharactersWholeAtTheEdge() {
        var grid = ScreenGrid(width: 5, height: 1)
        grid.draw(StyledText("ab山田"), row: 0)
        #expect(grid.text(ofRow: 0) == "ab山")
    }

    @Test func frameWriterRedrawsOnlyChangedRows() {
        var before = ScreenGrid(width: 10, height: 3)
        before.draw(StyledText("one"), row: 0)
        before.draw(StyledText("two"), row: 1)
        var after = before
        after.draw(StyledText("TWO", style: .match), row: 1)
        let writer = FrameWriter(usesColor: true)
        let update = writer.update(from: before, to: after)
        #expect(update.contains("\u{1B}[2;1H"))
        #expect(!update.contains("one"))
        #expect(update.contains("\u{1B}[0;1;31mTWO"))
        #expect(writer.update(from: nil, to: after).contains("\u{1B}[2J"))
    }

    @Test func noColorUsesAttributesOnly() {
        let colorless = FrameWriter(usesColor: false)
        for style in [TextStyle.match, .selected, .dim, .heading, [.match, .selected]] {
            let sgr = colorless.sgr(style)
            #expect(!sgr.contains("3"), "colour code in \(sgr.debugDescription)")
            #expect(!sgr.contains("48;"))
        }
        #expect(colorless.sgr(.match) == "\u{1B}[0;1;4m")
        #expect(FrameWriter(usesColor: true).sgr(.match) == "\u{1B}[0;1;31m")
    }
}
