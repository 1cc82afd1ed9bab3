import Testing
@testable import ftsearch

@Suite struct KeyDecoderTests {
    private func keys(_ chunks: [String]) -> [Key] {
        var decoder = KeyDecoder()
        return chunks.flatMap { decoder.keys(from: Array($0.utf8)) }
    }

    @Test(arguments: [
        ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}[H", .home), ("\u{1B}[F", .end),
        ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}[3~", .delete),
        ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\r", .enter), ("\t", .tab),
        ("\u{7F}", .backspace), ("\u{08}", .backspace), ("\u{03}", .control("c")),
        ("\u{04}", .control("d")), ("\u{07}", .control("g")), ("\u{0E}", .control("n")),
        ("\u{10}", .control("p")), ("\u{15}", .control("u")),
    ])
    func sequenceIsOneKey(bytes: String, key: Key) {
        #expect(keys([bytes]) == [key])
    }

    @Test func typedTextIsOneKeyUntilAControlKey() {
        #expect(keys(["ann\rx"]) == [.text("ann"), .enter, .text("x")])
    }

    @Test func characterSplitAcrossReadsIsWaitedFor() {
        let umlaut = Array("ü".utf8)
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: [umlaut[0]]) == [])
        #expect(decoder.keys(from: [umlaut[1]]) == [.text("ü")])
        #expect(keys(["Zo", "ë"]) == [.text("Zo"), .text("ë")])
    }

    @Test func wideAndEmojiCharactersDecode() {
        #expect(keys(["山田👩‍💻"]) == [.text("山田👩‍💻")])
    }

    @Test func loneEscapeWaitsThenFlushesAsEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: [0x1B]) == [])
        #expect(decoder.isAwaitingMore)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.isAwaitingMore)
    }

    @Test func escapeSequenceSplitAcrossReadsIsOneKey() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: [0x1B]) == [])
        #expect(decoder.keys(from: Array("[".utf8)) == [])
        #expect(decoder.keys(from: Array("B".utf8)) == [.down])
    }

    @Test func escapeFollowedByAKeyIsEscapeThenTheKey() {
        #expect(keys(["\u{1B}x"]) == [.escape, .text("x")])
    }

    @Test func bracketedPasteIsOneLineOfText() {
        #expect(keys(["\u{1B}[200~Zoë\nAnn\u{1B}[201~\r"]) == [.text("Zoë Ann"), .enter])
    }

    @Test func pasteEndSplitAcrossReadsIsFound() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: Array("\u{1B}[200~an\u{1B}[20".utf8)) == [])
        #expect(!decoder.isAwaitingMore)  // a paste never turns into Escape
        #expect(decoder.flush() == [])
        #expect(decoder.keys(from: Array("1~x".utf8)) == [.text("an"), .text("x")])
    }

    @Test func unknownSequencesAndInvalidBytesAreSkipped() {
        #expect(keys(["\u{1B}[15~a"]) == [.text("a")])
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: [0xFF, 0x61]) == [.text("a")])
    }
}
