import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// The control characters U+0001 to U+0006 are the folding tokenizer's own markers (accent
/// forms, anchored trigrams, variant forms: see ``FoldingTokenizer``). In a user's text — a
/// query, a suggestion prefix, a record's field — a control character is a separator like any
/// other character that is not part of a word, so no user text reaches a marked form of the
/// index or forges a trigram anchor.
@Suite struct ControlCharacterTests {
    /// U+0000 to U+0006, and a few other C0 controls.
    static let controls: [String] =
        (0...6).map { String(UnicodeScalar($0)!) } + [
            "\u{7}", "\u{1F}",
        ]
    static let words = ["42", "müller", "mueller", "muller", "ivanov", "Иванов", "ann", "nn", "zo"]

    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        try index.importPeople([
            ("Müller", "Anna", ""), ("Muller", "Ivan", ""), ("Mueller", "Joanna", ""),
            ("Иванов", "Пётр", ""), ("Ivanov", "Petr", ""), ("42Ünal", "Zoë", ""),
            ("Annabel", "Smith", "Ann Corp"),
        ])
    }

    /// The results of a search as compared: every hit in order with its match counts, and the
    /// tokens searched.
    private func outcome(_ text: String, _ match: MatchMode) throws -> [String] {
        let results = try index.search(SearchRequest(text: text, limit: nil, match: match))
        return ["\(results.total) \(results.tokens)"]
            + results.hits.map {
                "\($0.record.displayName) \($0.wholeTokenMatches) \($0.typos) \($0.accentMatches)"
            }
    }

    @Test(arguments: MatchMode.allCases)
    func aControlCharacterInAQuerySeparatesWords(match: MatchMode) throws {
        for control in Self.controls {
            for word in Self.words {
                let name = "\(control.unicodeScalars.first!.value) \(word) \(match)"
                // Leading (where the tokenizer reads a marker), inside a word and trailing.
                #expect(try outcome(control + word, match) == outcome(" " + word, match), "\(name)")
                #expect(
                    try outcome("anna" + control + word, match)
                        == outcome("anna " + word, match), "\(name)")
                #expect(
                    try outcome(word + control, match) == outcome(word + " ", match), "\(name)")
                let tokens = try index.search(SearchRequest(text: control + word, match: match))
                    .tokens
                #expect(!tokens.contains { $0.utf8.contains { $0 < 0x20 } }, "\(name) \(tokens)")
            }
        }
    }

    /// The fuzz case (`QueryFuzzTests`): `\u{1}42` read as an accent form found 42Ünal, whose
    /// accent form `\u{1}42ünal` it starts; it is the query `42`.
    @Test func aQueryStartingWithTheAccentMarkerIsAnOrdinaryQuery() throws {
        let results = try index.search(SearchRequest(text: "\u{1}42"))
        #expect(results.tokens == ["42"])
        #expect(results.hits.map(\.record.displayName) == ["42Ünal Zoë"])
        // A marker typed before an ASCII word asked for accent forms no record has.
        #expect(try index.names(for: "\u{1}muller") == ["Müller Anna", "Muller Ivan"])
        // A variant marker typed asked for the romanizations only.
        #expect(try index.names(for: "\u{4}ivanov") == index.names(for: "ivanov"))
    }

    @Test func substringAnchorsCannotBeForged() throws {
        for text in ["\u{2}nn", "nn\u{3}", "\u{2}nn\u{3}", "\u{4}nn", "\u{1}\u{2}ann\u{3}"] {
            let plain = text.unicodeScalars.filter { $0.value >= 0x20 }.map(String.init).joined()
            #expect(
                try outcome(text, .substring) == outcome(plain, .substring),
                "\(text.debugDescription)")
        }
        // Anna, Joanna, Annabel; read as a variant form, nothing.
        #expect(
            try index.search(SearchRequest(text: "\u{4}nn", limit: nil, match: .substring)).total
                == 3)
    }

    /// A record's fields with control characters store the words they separate, and no marked
    /// form: the index holds the same terms as for the fields with spaces instead.
    @Test func aRecordsControlCharactersSeparateItsWords() throws {
        func terms(_ people: [(String, String, String)]) throws -> [String] {
            let directory = try TemporaryDirectory()
            let index = try SearchIndex.temporary(in: directory)
            try index.importPeople(people)
            var terms: [String] = []
            try index.database.cachedStatement(
                sql: "SELECT term || ' ' || doc || ' ' || cnt FROM people_vocabulary ORDER BY term"
            ).forEachRow { terms.append($0.text(at: 0) ?? "") }
            return terms
        }
        var marked: [(String, String, String)] = []
        var spaced: [(String, String, String)] = []
        for control in Self.controls {
            let fields = (
                "\(control)mueller\(control)", "Hanna\(control)ivanov", "x\(control)ann\(control)y"
            )
            marked.append(fields)
            marked.append(("\(control)Müller", "Zo\(control)ë", "\(control)Иванов"))
            func spaces(_ text: String) -> String {
                String(text.map { $0 == control.first! ? " " : $0 })
            }
            spaced.append((spaces(fields.0), spaces(fields.1), spaces(fields.2)))
            spaced.append((" Müller", "Zo ë", " Иванов"))
        }
        let markedTerms = try terms(marked)
        #expect(markedTerms == (try terms(spaced)))
        // The only marked forms are the index's own: the accent forms of Müller and ë, the
        // variants of Иванов and Müller.
        #expect(
            markedTerms.filter { $0.utf8.first! < 0x20 }.map { $0.split(separator: " ")[0] }
                == ["\u{1}müller", "\u{1}ë", "\u{4}ivanov", "\u{4}mueller"])
    }

    @Test func aRecordWithControlCharactersIsFoundByItsWords() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople([("\u{1}mueller", "Hanna\u{4}ivanov", "x\u{2}ann\u{3}y")])
        for match in MatchMode.allCases {
            for word in ["mueller", "hanna", "ivanov", "ann", "y"] {
                #expect(
                    try index.search(SearchRequest(text: word, match: match)).total == 1,
                    "\(word) \(match)")
            }
        }
        // Its accent-marked text is no accent form: Müller typed with its accent matches the
        // record as a variant, not as a word written with the accents typed.
        let hit = try #require(try index.search(SearchRequest(text: "Müller")).hits.first)
        #expect(hit.accentMatches == 0)
        #expect(hit.typos == 1)
    }

    /// A field's word after a control character is highlighted as after a space: a leading
    /// U+0001 or U+0004 is no marker there either.
    @Test(arguments: ["\u{1}", "\u{4}", "\u{0}", " "])
    func aWordAfterAControlCharacterIsHighlighted(control: String) throws {
        var results = try index.search(SearchRequest(text: "zo"))
        results.tokens = ["zo"]
        let field = control + "Zoë" + control + "zoo"
        let ranges = try index.highlighter(for: results).matchedRanges(in: field)
        #expect(ranges.map { String(field[$0]) } == ["Zo", "zo"])
    }

    @Test func suggestionsAndFoldedWordsReadControlCharactersAsSeparators() throws {
        let options = SuggestionOptions(limit: 10, sources: [.index])
        for control in Self.controls {
            for prefix in ["mü", "iv", "ив", "42"] {
                let suggestions = try index.suggestions(
                    forPrefix: control + prefix, options: options)
                // Completed as after a space, the text before the word kept as typed.
                #expect(
                    suggestions.map(\.text)
                        == (try index.suggestions(forPrefix: " " + prefix, options: options)).map {
                            control + $0.text.dropFirst()
                        }, "\(control.debugDescription)\(prefix)")
                #expect(!suggestions.isEmpty)
            }
            #expect(try index.foldedWords(in: control + "Müller") == ["muller"])
        }
    }
}
