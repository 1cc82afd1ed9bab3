import Testing
import FTSearchTestSupport
@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit
import FTSearchSQLite

@Suite struct QueryEngineTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        try index.importPeople([
            ("Annabelle", "Lee", "AT&T"),
            ("Ann", "Smith", "Globex"),
            ("Anna", "Müller", "Müller-Lüdenscheid GmbH"),
            ("Annette", "Dubois", "Crédit Agricole"),
            ("Bob", "Stone", "Annex Ltd"),
            ("Zoë", "Ødegaard", "Smith & Sons, Inc."),
            ("Seán", "O'Brien", "O'Reilly Media"),
            ("Mary", "Smith-Jones", "Initech"),
        ])
        try index.importAnimals(["Annie", "Rex"])
    }

    /// A count (limit 0) and every match (no limit) go through the engine's one plan, as a
    /// page does: each must equal what the reference plan gives, at every offset.
    @Test(arguments: ["a", "ann", "smith", "mü", "o'b", "ann sm", "zzz", "e"])
    func countsAndEveryMatchEqualTheReferencePlan(text: String) throws {
        for kinds: Set<Kind> in [.all, .people] {
            for offset in [0, 1, 3, 20] {
                for limit: Int? in [0, nil] {
                    let request = SearchRequest(
                        text: text, kinds: kinds, limit: limit, offset: offset)
                    let results = try index.search(request)
                    #expect(results == (try index.referenceSearch(request)), "\(request)")
                    if limit == 0 { #expect(results.hits.isEmpty) }
                }
            }
        }
    }

    @Test func prefixFindsNamesAndCompanies() throws {
        let names = try index.names(for: "ann", kinds: .people)
        #expect(
            Set(names) == [
                "Ann Smith", "Anna Müller", "Annette Dubois", "Annabelle Lee", "Bob Stone",
            ])
    }

    @Test func wholeTokenRanksAbovePrefixOnly() throws {
        let names = try index.names(for: "ann", kinds: .people)
        #expect(names.first == "Ann Smith")
        let annabelle = try #require(names.firstIndex(of: "Annabelle Lee"))
        #expect(annabelle > 0)
    }

    @Test func namesRankAboveCompanies() throws {
        let names = try index.names(for: "ann", kinds: .people)
        #expect(names.last == "Bob Stone")
    }

    @Test(arguments: [
        ("zoe", ["Zoë Ødegaard"]),
        ("ZOË", ["Zoë Ødegaard"]),
        ("ann mül", ["Anna Müller"]),
        ("mül ann", ["Anna Müller"]),
        ("o'br", ["Seán O'Brien"]),
        ("sean o brien", ["Seán O'Brien"]),
        ("smith-jones", ["Mary Smith-Jones"]),
        ("at&t", ["Annabelle Lee"]),
        ("ødeg", ["Zoë Ødegaard"]),
    ])
    func matchingFoldsCaseDiacriticsAndPunctuation(text: String, expected: [String]) throws {
        #expect(try index.names(for: text, kinds: .people) == expected)
    }

    @Test(arguments: [
        "\"", "\"ann", "ann\"", "*", "ann*", "-ann", "ann -smith", "ann:smith", "first_name:ann",
        "^ann",
        "(ann", "ann)", "ann AND", "AND", "OR ann", "NOT", "NEAR(ann smith)", "ann + smith", "'",
        "\\",
        "{ann}", "[ann]", "ann;DROP TABLE people", "%", "_", "\u{0}", "ann\u{0}", "😀", "ann 😀",
        "\t\n",
    ])
    func anyTextIsLiteralAndNeverAnError(text: String) throws {
        let results = try index.search(SearchRequest(text: text))
        // Literal: every character that is not a letter or digit separates words, as in the
        // index, and nothing is an operator; text without letters or digits matches nothing.
        let words = String(text.map { $0.isLetter || $0.isNumber ? $0 : " " })
        if SearchRequest(text: text).listsEverything {
            #expect(results.total == (try index.search(SearchRequest(text: ""))).total)
        } else if words.allSatisfy(\.isWhitespace) {
            #expect(results.total == 0)
        } else {
            let plain = try index.search(SearchRequest(text: words))
            #expect(results.hits.map(\.record) == plain.hits.map(\.record))
            #expect(results.total == plain.total)
        }
    }

    @Test func operatorWordsAreOrdinaryWords() throws {
        try index.importPeople([("Philosophy", "And", "Sons")])
        #expect(try index.names(for: "and", kinds: .people) == ["Philosophy And"])
        #expect(try index.names(for: "ann AND smith", kinds: .people).isEmpty)
    }

    @Test func textWithoutLettersOrDigitsMatchesNothing() throws {
        let results = try index.search(SearchRequest(text: "*-\"'"))
        #expect(results.total == 0)
        #expect(results.hits.isEmpty)
    }

    @Test func emptyTextListsEverythingInNameOrder() throws {
        let results = try index.search(SearchRequest(text: "  ", kinds: .people, limit: nil))
        #expect(results.total == 8)
        #expect(
            results.hits.map(\.record.displayName) == [
                "Annette Dubois", "Annabelle Lee", "Anna Müller", "Seán O'Brien", "Ann Smith",
                "Mary Smith-Jones", "Bob Stone", "Zoë Ødegaard",
            ])
        #expect(try index.names(for: "", kinds: .animals) == ["Annie", "Rex"])
    }

    @Test func totalCountsEveryMatchWhateverThePage() throws {
        let page = try index.search(SearchRequest(text: "ann", kinds: .people, limit: 2, offset: 1))
        #expect(page.total == 5)
        #expect(page.hits.count == 2)
        let all = try index.search(SearchRequest(text: "ann", kinds: .people, limit: nil))
        #expect(page.hits == Array(all.hits[1...2]))
        let none = try index.search(SearchRequest(text: "ann", kinds: .people, limit: 0))
        #expect(none.total == 5 && none.hits.isEmpty)
    }

    @Test func allKindsAreSearchedTogether() throws {
        let results = try index.search(SearchRequest(text: "ann", limit: nil))
        #expect(results.total == 6)
        #expect(
            results.hits.contains { $0.record.kind == .animals && $0.record.displayName == "Annie" }
        )
    }

    @Test func equalResultsComeInSortNameThenIDOrder() throws {
        try index.importPeople([("Zed", "Twin", "X"), ("Zed", "Twin", "X"), ("Zed", "Alpha", "X")])
        let hits = try index.search(SearchRequest(text: "zed", kinds: .people)).hits
        #expect(hits.map(\.record.displayName) == ["Zed Alpha", "Zed Twin", "Zed Twin"])
        #expect(hits[1].record.id! < hits[2].record.id!)
    }

    /// A page's plans, ranking (doclists, row sizes, sort codes and names) and records are
    /// read in one read transaction: from one version of the database, its locks taken once.
    /// Only the check that the indexes it needs exist comes before, in one of its own.
    @Test func aSearchReadsInOneTransaction() throws {
        try index.importPeople([("Zed", "Twin", "X"), ("Zed", "Twin", "X"), ("Zed", "Alpha", "X")])
        index.resultCacheMinimumCost = nil
        let log = StatementLog(on: index.database)
        let hits = try index.search(SearchRequest(text: "zed", kinds: .people, limit: 1)).hits
        #expect(hits.map(\.record.displayName) == ["Zed Alpha"])
        let statements = log.statements
        let begins = statements.indices.filter { statements[$0].hasPrefix("BEGIN") }
        try #require(begins.count == 2)
        let check = statements[begins[0] + 1..<begins[1]]
        #expect(check.allSatisfy { $0 == "COMMIT" || $0.contains("schema") })
        let search = statements[(begins[1] + 1)...]
        #expect(search.last == "COMMIT")
        #expect(search.dropLast().allSatisfy { $0 != "COMMIT" })
        #expect(search.contains { $0.contains("people_fts_data") })
        // The index's structure record once, though the variant gates and the kept ranking's
        // slot both check it (IndexStructure).
        #expect(search.count { $0.contains("people_fts_data WHERE id = 10") } == 1)
        #expect(search.contains { $0.contains("FROM people") || $0.contains("FROM \"people\"") })
    }

    /// A ranking too cheap to keep reads nothing after the search's transaction: not the
    /// change log a kept ranking's frontier needs.
    @Test func aCheapRankingReadsNothingAfterItsTransaction() throws {
        index.resultCacheMinimumCost = .seconds(60)
        let log = StatementLog(on: index.database)
        _ = try index.search(SearchRequest(text: "ann", kinds: .people, limit: 2))
        let commit = try #require(log.statements.lastIndex(of: "COMMIT"))
        #expect(!log.statements[commit...].contains { $0.contains("search_changes") })
        #expect(log.statements[..<commit].contains { $0.contains("search_changes") })
    }

    /// A page that ends inside a group of equal scores whose sort names all begin alike (one
    /// sort code, `par`) orders that run by the whole names, and gives what ranking every
    /// match gives, a deep page's too: names that differ in case only, that are equal (then by
    /// id), that are the code's letters alone, beside another code's run.
    @Test func aPageInsideATieGroupOfOneCodeEqualsTheReferencePlan() throws {
        var random = SeededGenerator(seed: TestSettings.seed)
        let lastNames = ["Parker", "parker", "PARKS", "Par", "Parisi", "Parr", "Pardo", "Smith"]
        // Names before `par` that do not match.
        try index.importPeople((0..<12_500).map { _ in ("Bob", "Aaberg", "Y") })
        try index.importPeople(
            (0..<3000).map { _ in ("Zed", lastNames.randomElement(using: &random)!, "X") })
        try index.importAnimals((0..<50).map { _ in "Parrot Zed" })
        index.resultCacheMinimumCost = nil
        for (kinds, offset, limit) in [
            (Set<Kind>.people, 0, 20), (.people, 7, 20), (.people, 500, 20), (.people, 0, 1),
            (.people, 2990, 20), (.all, 0, 20), (.all, 490, 10),
        ] {
            let request = SearchRequest(text: "zed", kinds: kinds, limit: limit, offset: offset)
            #expect(
                try index.search(request) == index.referenceSearch(request),
                "\(kinds) from \(offset)")
        }
    }

    @Test func scoresAreHigherForBetterMatches() throws {
        let hits = try index.search(SearchRequest(text: "smith", kinds: .people)).hits
        #expect(hits.first?.record.displayName == "Ann Smith")
        #expect(hits.allSatisfy { $0.score > 0 })
        #expect(hits.map(\.wholeTokenMatches) == [1, 1, 1])
    }
}

@Suite struct SearchPatternTests {
    @Test func doublesQuotesInsideTokens() {
        #expect(SearchPattern.quoted("a\"b") == "\"a\"\"b\"")
        // Quoted on UTF-8 bytes: letters of several bytes, and a mark after the quote, stay.
        #expect(SearchPattern.quoted("mü\"\u{301}ller") == "\"mü\"\"\u{301}ller\"")
        #expect(SearchPattern.quoted("") == "\"\"")
    }

    @Test func repeatedTokensCountOnce() throws {
        let pattern = try #require(SearchPattern(tokens: ["ann", "smith", "ann"]))
        #expect(pattern.tokens == ["ann", "smith"])
    }

    @Test func noTokensMeansNoPattern() {
        #expect(SearchPattern(tokens: []) == nil)
    }
}

@Suite struct MatchHighlighterTests {
    @Test(arguments: [
        ("Annabelle Lee", ["ann"], ["Ann"]),
        ("Zoë Ødegaard", ["zoe"], ["Zoë"]),
        ("Seán O'Brien", ["o", "br"], ["O", "Br"]),
        ("Anna Annex", ["an", "annex"], ["An", "Annex"]),
        ("Bob", ["ann"], []),
    ])
    func highlightsTheMatchedPrefixOfEachWord(text: String, tokens: [String], expected: [String])
        throws
    {
        let tokenizer = try FTS5Tokenizer(
            database: Database(path: ":memory:"), arguments: ["remove_diacritics", "2"])
        let ranges = MatchHighlighter(tokenizer: tokenizer, tokens: tokens).matchedRanges(in: text)
        #expect(ranges.map { String(text[$0]) } == expected)
    }
}
