import FTSearchSQLite
import FTSearchTestSupport
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit

/// Names typed as people type them: on a keyboard without the name's letters (`mueller`,
/// `ivanov`, `papadimitriou`), with another apostrophe or Arabic letter form, decomposed or in
/// full width. Every case found nothing, or ranked otherwise, before the index stored
/// ``NameVariants`` and queries were normalized.
@Suite struct NamesFromEveryCountryTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    static let people = [
        ("Ivan", "Иванов", ""), ("Ivan", "Ivanov", ""), ("Pyotr", "Ivanovsky", ""),
        ("Anna", "Müller", ""), ("Anna", "Mueller", ""), ("Lena", "Förster", ""),
        ("Nikos", "Παπαδημητρίου", ""), ("Γιώργος", "Παπαδόπουλος", ""),
        ("Marko", "Јовановић", ""), ("Milan", "Jovanović", ""),
        ("فاطمة", "الحارثي", ""), ("سلمى", "حارثي", ""), ("مصطفى", "محمد", ""),
        ("Taras", "Демʼянюк", ""), ("Olena", "Дем'янюк", ""),
        ("Søren", "Ålborg", ""), ("Sören", "Brøndby", "Dürr ApS"),
        ("Софья", "Кузнецова", ""), ("Sof'ia", "Lind", ""), ("Sofia", "Berg", ""),
        ("Гульнара", "Ахметова", ""),
    ]

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        try index.importPeople(Self.people)
    }

    private func names(_ text: String, match: MatchMode = .prefix) throws -> [String] {
        try index.search(SearchRequest(text: text, kinds: .people, match: match)).hits.map(
            \.record.displayName)
    }

    @Test(arguments: [
        // A Latin query finds Greek and Cyrillic names by their romanizations, below the
        // names written in Latin letters.
        ("ivanov", ["Ivan Ivanov", "Pyotr Ivanovsky", "Ivan Иванов"]),
        ("papademetriou", ["Nikos Παπαδημητρίου"]),
        ("papadimitriou", ["Nikos Παπαδημητρίου"]),
        ("giorgos papadopoulos", ["Γιώργος Παπαδόπουλος"]),
        // Serbian Latin and Cyrillic, both ways, the query's own script first.
        ("jovanovic", ["Milan Jovanović", "Marko Јовановић"]),
        ("Јовановић", ["Marko Јовановић", "Milan Jovanović"]),
        // German and Nordic ASCII spellings, both ways, the spelling typed first.
        ("mueller", ["Anna Mueller", "Anna Müller"]),
        ("müller", ["Anna Müller", "Anna Mueller"]),
        ("foerster", ["Lena Förster"]),
        ("aalborg", ["Søren Ålborg"]),
        ("soeren", ["Søren Ålborg", "Sören Brøndby"]),
        ("broendby duerr", ["Sören Brøndby"]),
        // Arabic: ta marbuta typed as ha, alef maksura as ya, tatweel, the article left out
        // (the name without it first).
        ("فاطمه", ["فاطمة الحارثي"]),
        ("مصطفي", ["مصطفى محمد"]),
        ("محـمد", ["مصطفى محمد"]),
        ("حارثي", ["سلمى حارثي", "فاطمة الحارثي"]),
        // The four apostrophes are one mark.
        ("Дем'янюк", ["Olena Дем'янюк", "Taras Демʼянюк"]),
        ("Демʼянюк", ["Olena Дем'янюк", "Taras Демʼянюк"]),
        ("Дем’янюк", ["Olena Дем'янюк", "Taras Демʼянюк"]),
        ("Дем‘янюк", ["Olena Дем'янюк", "Taras Демʼянюк"]),
        // A word typed with an apostrophe also finds it written without: a soft sign as
        // Unidecode writes it (`Sof'ia` for Софья), below the spellings in Latin letters, the
        // apostrophe typed first.
        ("sof'ia", ["Sof'ia Lind", "Sofia Berg", "Софья Кузнецова"]),
        ("Sof’ia Kuznetsova", ["Софья Кузнецова"]),
        ("gul'nara", ["Гульнара Ахметова"]),
        ("gulʼnara akhm", ["Гульнара Ахметова"]),
    ])
    func typedOnAnyKeyboard(query: String, expected: [String]) throws {
        #expect(try names(query) == expected)
    }

    @Test func exactMatchingFindsVariantsToo() throws {
        #expect(try names("ivanov", match: .exact) == ["Ivan Ivanov", "Ivan Иванов"])
        #expect(try names("mueller", match: .exact) == ["Anna Mueller", "Anna Müller"])
        #expect(try names("mueler", match: .fuzzy).contains("Anna Müller"))
        #expect(
            try Set(names("sof'ia", match: .exact))
                == ["Sof'ia Lind", "Sofia Berg", "Софья Кузнецова"])
        #expect(try names("sof'ia", match: .exact).first == "Sof'ia Lind")
    }

    /// Every form of the same text answers identically: hits, scores and tiers.
    @Test(arguments: [
        ("Müller", "Mu\u{308}ller"), ("Müller", "Ｍüller"), ("müller", "MÜLLER"),
        ("παπαδόπουλος", "ΠΑΠΑΔΌΠΟΥΛΟΣ"), ("παπαδόπουλος", "παπαδο\u{301}πουλος"),
    ])
    func everyFormAnswersIdentically(form: String, other: String) throws {
        let one = try index.search(SearchRequest(text: form, kinds: .people))
        let two = try index.search(SearchRequest(text: other, kinds: .people))
        #expect(!one.hits.isEmpty)
        #expect(one.hits == two.hits, "\(form) / \(other)")
        #expect(one.hits.first?.accentMatches == 1, "\(form)")
    }

    /// Variant phrases keep the fast plan equal to the reference plan, in every mode.
    @Test func fastPlanEqualsReferencePlan() throws {
        let engine = QueryEngine(database: index.database, tokenizer: try index.tokenizer)
        try index.prepareIndexes(for: .substring, of: .all)
        let queries = [
            "ivanov", "iva", "mueller", "müller", "mü", "papad", "jovanovic", "Јов", "حارثي",
            "فاطمه", "soeren", "sø", "brondby", "Дем'янюк", "an", "ivan ivanov", "sof'ia",
            "gul'nara akh", "o'br", "s'o",
        ]
        for text in queries {
            for match in MatchMode.allCases {
                let request = SearchRequest(text: text, kinds: .all, match: match)
                let fast = try engine.search(request)
                let reference = try engine.referenceSearch(request)
                #expect(fast.total == reference.total, "\(text) \(match)")
                #expect(fast.hits == reference.hits, "\(text) \(match)")
            }
        }
    }

    @Test func wordsTypedWithApostrophes() throws {
        let tokenizer = try index.tokenizer
        func words(_ text: String) -> [String?] {
            NameVariants.apostropheWords(of: tokenizer.tokens(in: text), in: text)
        }
        #expect(words("Sof'ia Ivanova") == ["sofia", "sofia", nil])
        #expect(
            words("d’Artagnan O‘Brien-x") == ["dartagnan", "dartagnan", "obrien", "obrien", nil])
        #expect(words("Ta'ti'ana") == ["tatiana", "tatiana", "tatiana"])
        #expect(words("Дем'янюк") == ["демянюк", "демянюк"])
        // Not between two letters: no word.
        #expect(words("ann' lee") == [nil, nil])
        #expect(words("ann 'lee") == [nil, nil])
        #expect(words("ann''lee") == [nil, nil])
    }

    @Test func variantsOfAWord() {
        func variants(_ word: String) -> [String] {
            var lowercased: [UInt8] = []
            var folded: [UInt8] = []
            Array(word.utf8).withUnsafeBytes {
                FoldingTokenizer.appendLowercased($0, to: &lowercased)
            }
            lowercased.withUnsafeBytes { LetterFolding.fold($0, into: &folded) }
            return NameVariants.variants(ofLowercased: lowercased, folded: folded).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        #expect(variants("Müller") == ["mueller"])
        #expect(variants("Straße") == [])
        #expect(variants("Ivanov") == [])
        #expect(variants("Щукин") == ["shchukin", "sukin"])
        #expect(variants("Παπαδημητρίου") == ["papademetriou", "papadimitriou"])
        #expect(variants("Μπαλτατζή") == ["mpaltatze", "baltatzi"])
        #expect(variants("Ευάγγελος") == ["euaggelos", "euangelos", "efangelos"])
        #expect(variants("Јовановић") == ["jovanovitsh", "jovanovic"])
        #expect(variants("الحارثي") == ["حارثي"])
        #expect(variants("ال") == [])
        // Variants with other first letters share a marker; those alike take the next one.
        #expect(NameVariants.markers(of: [Array("shchukin".utf8), Array("sukin".utf8)]) == [4, 4])
        #expect(
            NameVariants.markers(
                of: ["papademetriou", "papadimitriou", "papa"].map { Array($0.utf8) })
                == [4, 5, 6])
        #expect(NameVariants.gate(of: "papadim") == "\u{4}pap")
    }
}

/// Did-you-mean corrections stay in the query's script, and a lone mark gets none.
@Suite struct CorrectionScriptTests {
    @Test(arguments: ["ㄱ", "\u{E48}", "\u{93F}"])
    func aLoneMarkOrJamoGetsNoCorrection(text: String) throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople([("Ann", "Lee", "Acme A/S"), ("Bo", "S", "X")])
        let results = try index.search(SearchRequest(text: text))
        #expect(results.total == 0)
        #expect(results.didYouMean == nil)
    }

    @Test func aCorrectionStaysInTheQueryScript() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople([("Ivan", "Petrov", "Acme A/S"), ("Иван", "Петров", "Я")])
        #expect(try index.search(SearchRequest(text: "пертов")).didYouMean == "петров")
        // One letter, one typo: any word of one letter, but only "я" is Cyrillic.
        #expect(try index.search(SearchRequest(text: "ж")).didYouMean == "я")
        #expect(try index.search(SearchRequest(text: "pertov")).didYouMean == "petrov")
    }
}
