import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// Substring and exact matching give exactly a naive filter's records (fold both sides with the
/// index's tokenizer, compare word by word), on generated people and animals with diacritics
/// and upper case; fuzzy matching finds what prefix matching finds, and more.
@Suite struct MatchModeTests {
    let directory: TemporaryDirectory
    let index: SearchIndex
    /// Each record's folded words, by kind and id.
    let words: [Kind: [Int64: [String]]]

    static let names = [
        "Ann", "Joanna", "Hannah", "Søren", "Soren", "Łukasz", "Straße", "STRASSER", "Zoë",
        "Ødegaard", "Müller", "Mullins", "Anna-Marie", "O'Brien", "Æsa", "Þór", "smith",
        "Smithson", "ßa", "Nanna", "Ñuñez", "Björn", "Ingrid", "AT&T", "Lee", "Mac Allister",
    ]

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        var random = SeededGenerator(seed: 11)
        let people = (0..<600).map { _ in
            (
                Self.names.randomElement(using: &random)!,
                Self.names.randomElement(using: &random)!,
                Bool.random(using: &random) ? "" : Self.names.randomElement(using: &random)!
            )
        }
        try index.importPeople(people)
        try index.importAnimals((0..<150).map { _ in Self.names.randomElement(using: &random)! })
        let tokenizer = try index.tokenizer
        var words: [Kind: [Int64: [String]]] = [:]
        for kind in Kind.allCases {
            let all = try index.search(
                SearchRequest(text: "", kinds: kind == .people ? .people : .animals, limit: nil))
            for hit in all.hits {
                words[kind, default: [:]][hit.record.id ?? 0] = hit.record.record.searchableValues
                    .flatMap {
                        tokenizer.tokens(in: $0).map(\.text)
                    }
            }
        }
        self.words = words
    }

    /// Queries: pieces of the names (1 to 5 letters from anywhere), in random case, some
    /// with accents, and two-word combinations.
    static func queries() -> [String] {
        var random = SeededGenerator(seed: 5)
        var queries: [String] = []
        for _ in 0..<300 {
            let name = Array(names.randomElement(using: &random)!)
            let length = Int.random(in: 1...min(5, name.count), using: &random)
            let start = Int.random(in: 0...(name.count - length), using: &random)
            var piece = String(name[start..<start + length])
            if Bool.random(using: &random) { piece = piece.uppercased() }
            queries.append(piece)
        }
        for _ in 0..<100 {
            queries.append(
                String(names.randomElement(using: &random)!.prefix(3)) + " "
                    + String(names.randomElement(using: &random)!.suffix(2)))
        }
        return queries + ["ß", "SS", "ø", "o", "nn", "ull", "MÜL", "straße", "a-m"]
    }

    /// The ids the naive filter finds: every query token is inside (or equal to) a word.
    private func naive(_ text: String, exact: Bool) throws -> Set<String> {
        let tokens = try index.tokenizer.tokens(in: text).map(\.text)
        var found = Set<String>()
        for (kind, records) in words {
            for (id, recordWords) in records
            where tokens.allSatisfy({ token in
                recordWords.contains { exact ? $0 == token : $0.contains(token) }
            }) {
                found.insert("\(kind.rawValue) \(id)")
            }
        }
        return found
    }

    private func found(_ text: String, match: MatchMode) throws -> (ids: Set<String>, total: Int) {
        let all = try index.search(SearchRequest(text: text, limit: nil, match: match))
        let page = try index.search(SearchRequest(text: text, limit: 20, match: match))
        #expect(page.total == all.total, "total of \(text)")
        #expect(page.hits == Array(all.hits.prefix(20)), "first page of \(text)")
        return (Set(all.hits.map { "\($0.record.kind.rawValue) \($0.record.id ?? 0)" }), all.total)
    }

    @Test func substringFindsExactlyWhatTheNaiveFilterFinds() throws {
        var nonEmpty = 0
        for text in Self.queries() {
            let expected = try naive(text, exact: false)
            let (ids, total) = try found(text, match: .substring)
            #expect(ids == expected, "substring \(text)")
            #expect(total == expected.count, "substring total \(text)")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 300)
    }

    @Test func exactFindsExactlyWhatTheNaiveFilterFinds() throws {
        var nonEmpty = 0
        for text in Self.queries() + Self.names {
            let expected = try naive(text, exact: true)
            let (ids, total) = try found(text, match: .exact)
            #expect(ids == expected, "exact \(text)")
            #expect(total == expected.count, "exact total \(text)")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 50)
    }

    @Test func fuzzyFindsEverythingPrefixFinds() throws {
        for text in Self.queries() {
            let prefix = try found(text, match: .prefix).ids
            let fuzzy = try found(text, match: .fuzzy).ids
            #expect(prefix.isSubset(of: fuzzy), "fuzzy \(text)")
        }
    }
}

/// Typo thresholds, the ranking rules across modes, did-you-mean, fields and weights.
@Suite struct ForgivingSearchTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        try index.importPeople([
            ("Rosa", "Smith", "Acme"), ("Maria", "Smiht", "Annex Ltd"),
            ("Lorraine", "Valentina", "Smithson & Co"), ("Ann", "Lee", "Hannah Films"),
            ("Anna", "Mullins", "Joanna Inc"), ("Joanna", "Müller", "Acme"),
            ("Zed", "Smith", "Ann Arbor"),
        ])
    }

    private func names(_ text: String, _ match: MatchMode) throws -> [String] {
        try index.search(SearchRequest(text: text, kinds: .people, match: match)).hits.map(
            \.record.displayName)
    }

    @Test(arguments: [
        ("rosi", false),  // 4 letters: no typo allowed
        ("rosq", false),
        ("marja", true),  // 5 letters: one typo
        ("mxrjx", false),  // two typos
        ("lorrainx", true),  // 8 letters: one typo
        ("lorraixx", false),  // two typos
        ("valentinx", true),  // 9 letters: two typos
        ("valentixx", true),
        ("valenxixx", false),  // three typos
        ("amith", true),  // substitution
        ("smth", false),  // 4 letters
        ("smithh", true),  // insertion
        ("joana", true),  // deletion
        ("ajnna", true),  // 5 letters, Anna with a letter inserted
        ("anan", false),  // 4 letters, the start of no word
    ])
    func fuzzyAllowsTyposByLength(text: String, finds: Bool) throws {
        let found = try names(text, .fuzzy)
        #expect(!found.isEmpty == finds, "\(text): \(found)")
    }

    @Test func theVocabularyIsKeptWithoutEverWaitingForTheWriteLock() throws {
        func keptVocabularies() throws -> Int {
            try index.database.fetchInt(sql: "SELECT count(*) FROM vocabulary_cache") ?? 0
        }
        let writer = try Database(path: index.path)
        try writer.execute(sql: "BEGIN IMMEDIATE")
        let clock = ContinuousClock()
        var found: [String] = []
        let elapsed = try clock.measure { found = try names("smiht", .fuzzy) }
        #expect(elapsed < .seconds(5))  // not the 10-second busy timeout
        #expect(try keptVocabularies() == 0)
        try writer.execute(sql: "ROLLBACK")
        #expect(try names("smiht", .fuzzy) == found)
        #expect(try keptVocabularies() > 0)
    }

    /// A sorted search plans inside its read transaction, as every search does: the
    /// vocabulary its corrections read is kept once that transaction ends.
    @Test func aSortedFuzzySearchKeepsTheVocabularyToo() throws {
        let request = SearchRequest(
            text: "smiht", kinds: .people, match: .fuzzy, sort: [SortKey(field: "last_name")])
        #expect(try !index.search(request).hits.isEmpty)
        #expect(try index.database.fetchInt(sql: "SELECT count(*) FROM vocabulary_cache") == 1)
    }

    @Test func typoThresholdsAreMeilisearchs() {
        let expected = [0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2]
        #expect((0...11).map(TypoTolerance.allowedTypos(forLength:)) == expected)
    }

    @Test func transpositionIsOneTypo() throws {
        // "smiht" is Smiht exactly, and Smith with two letters swapped.
        #expect(try names("smiht", .fuzzy) == ["Maria Smiht", "Rosa Smith", "Zed Smith"])
        #expect(try names("smtih", .fuzzy).contains("Rosa Smith"))
    }

    @Test func substringRanksWholeWordsThenPrefixesThenInfixes() throws {
        // Ann (whole), Anna (prefix), Joanna and Hannah (infix) in names, then "Annex"
        // (prefix) in a company: the field rule comes first.
        let hits = try index.search(SearchRequest(text: "ann", kinds: .people, match: .substring))
            .hits
        #expect(hits.map(\.record.displayName).first == "Ann Lee")
        let tiers = hits.map { ($0.fieldLevels, $0.wholeTokenMatches, -$0.infixMatches) }
        #expect(tiers.first! == (1, 1, 0))
        #expect(tiers.last! == (0, 0, 0))
        #expect(hits.last?.record[field: "company"]?.hasPrefix("Annex") == true)
        #expect(tiers.contains { $0 == (1, 0, -1) })
        #expect(zip(tiers, tiers.dropFirst()).allSatisfy { a, b in a >= b })
        #expect(hits.map(\.record.displayName).contains("Joanna Müller"))
    }

    @Test func fuzzyRanksFewerTyposFirst() throws {
        let hits = try index.search(SearchRequest(text: "smith", kinds: .people, match: .fuzzy))
            .hits
        // Smith (whole, 0 typos), Smiht (whole, 1 typo), Smithson (prefix).
        #expect(hits.map(\.typos) == [0, 0, 1, 0])
        #expect(hits.map(\.wholeTokenMatches) == [1, 1, 1, 0])
        #expect(hits.last?.record.displayName == "Lorraine Valentina")
    }

    @Test func substringIndexStaysExactThroughEditsAndImports() throws {
        let added = try index.insert(Person(firstName: "Quirinus", lastName: "Zyx", company: ""))
        #expect(try names("irin", .substring) == ["Quirinus Zyx"])
        try index.update(Person.self, id: try #require(added.id)) { $0.firstName = "Quentin" }
        #expect(try names("irin", .substring).isEmpty)
        #expect(try names("uent", .substring) == ["Quentin Zyx"])
        try index.importPeople([("Irina", "Zyx", "")])
        #expect(try names("irin", .substring) == ["Irina Zyx"])
        try index.delete(Person.self, ids: [try #require(added.id)])
        #expect(try names("zyx", .substring) == ["Irina Zyx"])
        #expect(try index.check().isEmpty)
    }

    @Test func accentsTypedRankTheSameAccentsFirst() throws {
        // "mül": Müller matches with the accent typed, Mullins only after folding; bm25 alone
        // would put Anna Mullins first (her match is in a shorter record).
        let hits = try index.search(SearchRequest(text: "mül", kinds: .people)).hits
        #expect(hits.map(\.record.displayName) == ["Joanna Müller", "Anna Mullins"])
        #expect(hits.map(\.accentMatches) == [1, 0])
        let folded = try index.search(SearchRequest(text: "mul", kinds: .people)).hits
        #expect(folded.allSatisfy { $0.accentMatches == 0 })
        for match in [MatchMode.exact, .fuzzy] {
            let exact = try index.search(
                SearchRequest(text: "müller", kinds: .people, match: match))
            #expect(exact.hits.first?.record.displayName == "Joanna Müller")
        }
    }

    @Test func exactMatchesWholeWordsOnly() throws {
        #expect(try names("ann", .exact) == ["Ann Lee", "Zed Smith"])
        #expect(try names("ann", .prefix).count == 4)
    }

    @Test func didYouMeanCorrectsAPrefixSearchThatFindsNothing() throws {
        let results = try index.search(SearchRequest(text: "Joanan", kinds: .people))
        #expect(results.total == 0)
        #expect(results.didYouMean == "joanna")
        #expect(
            try index.search(SearchRequest(text: "rosa smiht", kinds: .people)).didYouMean == nil)
        #expect(
            try index.search(SearchRequest(text: "rosa smoth", kinds: .people)).didYouMean
                == "rosa smith")
        #expect(try index.search(SearchRequest(text: "anm")).didYouMean == "ann")
        #expect(try index.search(SearchRequest(text: "ann")).didYouMean == nil)
        #expect(try index.search(SearchRequest(text: "qqqqqqq")).didYouMean == nil)
        // Each word exists, but never together: nothing to correct.
        #expect(try index.search(SearchRequest(text: "rosa lorraine")).didYouMean == nil)
        // Fuzzy, substring and exact searches get none.
        #expect(
            try index.search(SearchRequest(text: "zzmith", match: .exact)).didYouMean == nil)
    }

    @Test func fieldsRestrictMatching() throws {
        let request = SearchRequest(text: "ann", kinds: .people, fields: ["company"])
        #expect(
            try index.search(request).hits.map(\.record.displayName) == [
                "Zed Smith", "Maria Smiht",
            ])
        let firstNames = SearchRequest(
            text: "joanna", kinds: .people, match: .substring, fields: ["first_name"])
        #expect(try index.search(firstNames).hits.map(\.record.displayName) == ["Joanna Müller"])
    }

    @Test func unknownFieldIsATypedErrorListingTheValidOnes() throws {
        let request = SearchRequest(text: "ann", kinds: .people, fields: ["first_name", "nmae"])
        #expect(
            throws: SearchRequestError.unknownField(
                "nmae", validFields: ["first_name", "last_name", "company"])
        ) { try index.search(request) }
        let weights = SearchRequest(text: "ann", weights: ["fist_name": 3])
        #expect(
            throws: SearchRequestError.unknownField(
                "fist_name", validFields: ["first_name", "last_name", "company", "name"])
        ) { try index.search(weights) }
        #expect(throws: SearchRequestError.self) {
            try index.search(SearchRequest(text: "ann", weights: ["company": -1]))
        }
    }

    @Test func weightsChangeTheOrder() throws {
        // "acme" is a company; "joanna" is a first name and a company.
        let byName = try index.search(SearchRequest(text: "joanna", kinds: .people)).hits
        #expect(byName.map(\.record.displayName) == ["Joanna Müller", "Anna Mullins"])
        let byCompany = try index.search(
            SearchRequest(
                text: "joanna", kinds: .people, weights: ["company": 50, "first_name": 1])
        ).hits
        #expect(byCompany.map(\.record.displayName) == ["Anna Mullins", "Joanna Müller"])
    }

    @Test(arguments: [
        (MatchMode.substring, "nna", "Joanna Hannah", ["nna", "nna"]),
        (.fuzzy, "smiht", "Rosa Smith", ["Smith"]),
        (.fuzzy, "smi", "Smithson", ["Smi"]),
        (.exact, "ann", "Ann Anna", ["Ann"]),
        (.prefix, "strasse", "Straße Strasser", ["Straße", "Strasse"]),
        (.substring, "ss", "Straße", ["ß"]),
        (.prefix, "soren", "Søren", ["Søren"]),
    ])
    func highlightsWhatMatchedInEachMode(
        match: MatchMode, text: String, field: String, expected: [String]
    ) throws {
        let results = try index.search(SearchRequest(text: text, match: match))
        var highlighted = results
        if match == .fuzzy && text == "smiht" { #expect(results.corrections.contains("smith")) }
        highlighted.tokens = try index.tokenizer.tokens(in: text).map(\.text)
        let ranges = try index.highlighter(for: highlighted).matchedRanges(in: field)
        #expect(ranges.map { String(field[$0]) } == expected)
    }
}
