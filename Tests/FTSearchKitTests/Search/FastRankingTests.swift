import FTSearchSQLite
import Testing
import FTSearchTestSupport
@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit

/// The fast ranking plan (``RankedPage``) must give exactly the reference plan's results: the
/// same total, the same records in the same order, with the same scores.
@Suite struct FastRankingTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    // Few distinct words with shared prefixes, so that ties, whole-token matches of short
    // words ("A/S" gives the token "a") and rows with several hits are common.
    static let firstNames = [
        "Ann", "Anna", "Annabelle", "Andrés", "Zoë", "Søren", "Łukasz", "Mary Ann", "Al",
        "Bo", "Sean", "Seán", "Marie-Anne", "A", "Bob", "Ma", "anna", "ANNA", "bo", "Åsa", "åsa",
    ]
    static let lastNames = [
        "Andersen", "Müller", "O'Brien", "Smith-Jones", "Smith", "Anders", "Ann",
        "Mac Allister", "Schmidt", "Bo", "Ødegaard", "Lee", "ANN", "ann", "Ann Marie", "MÜLLER",
        "andersen", "Ann-Marie",
    ]
    static let companies = [
        "Acme", "Andersen A/S", "Smith & Sons, Inc.", "AT&T", "Müller-Lüdenscheid GmbH",
        "Ann Arbor Analytics", "Bob's Burgers", "Schmidt, Schmidt & Co", "", "A B C D E F",
    ]

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        var random = SeededGenerator(seed: 42)
        let people = (0..<2500).map { _ in
            (
                Self.firstNames.randomElement(using: &random)!,
                Self.lastNames.randomElement(using: &random)!,
                Self.companies.randomElement(using: &random)!
            )
        }
        // Columns of more than 127, 255 and 16,383 tokens: their sizes take two and three
        // varint bytes in FTS5's docsize table.
        let long = [130, 260, 300, 16_400].map { count in
            (
                "Ann", "Long\(count)",
                "Acme " + Array(repeating: "filler", count: count).joined(separator: " ")
            )
        }
        try index.importPeople(people + long)
        try index.importAnimals(
            (0..<300).map { _ in
                Self.firstNames.randomElement(using: &random)! + " " + Self.lastNames.randomElement(
                    using: &random)!
            })
        // These tests drive the query engine directly, below the search that builds it.
        try index.prepareIndexes(for: .substring, of: .all)
    }

    static func queries() -> [String] {
        var random = SeededGenerator(seed: 7)
        let words = (firstNames + lastNames + companies).flatMap {
            $0.split(whereSeparator: { !$0.isLetter })
        }
        .map(String.init)
        var queries: [String] = []
        for length in 1...3 {
            for _ in 0..<25 {
                queries.append(String(words.randomElement(using: &random)!.prefix(length)))
            }
        }
        for _ in 0..<40 {
            let first = words.randomElement(using: &random)!.prefix(
                Int.random(in: 1...4, using: &random))
            let second = words.randomElement(using: &random)!.prefix(
                Int.random(in: 1...4, using: &random))
            queries.append("\(first) \(second)")
        }
        return queries + ["a a", "ann ann", "a/s", "zz", "smith sons inc"]
    }

    @Test(arguments: [
        (Set<Kind>.people, 20, 0), (.all, 20, 0), (.animals, 5, 0), (.people, 1, 0),
        (.all, 7, 13),
        (.people, 20, 40),
    ])
    func fastPlanEqualsReferencePlan(kinds: Set<Kind>, limit: Int, offset: Int) throws {
        let engine = QueryEngine(database: index.database, tokenizer: try index.tokenizer)
        try expectEqualPlans(engine, kinds: kinds, limit: limit, offset: offset)
    }

    /// The same with every table split in two rowid halves ranked on two connections at once.
    @Test(arguments: [(Set<Kind>.people, 20, 0), (.all, 7, 13), (.people, 1, 0)])
    func parallelPlanEqualsReferencePlan(kinds: Set<Kind>, limit: Int, offset: Int) throws {
        let helper = RankingHelper(path: index.path)
        let engine = QueryEngine(
            database: index.database, tokenizer: try index.tokenizer, helper: { helper },
            parallelMinimumSpan: 0)
        try expectEqualPlans(engine, kinds: kinds, limit: limit, offset: offset)
    }

    private func expectEqualPlans(
        _ engine: QueryEngine, kinds: Set<Kind>, limit: Int, offset: Int
    ) throws {
        for text in Self.queries() {
            for request in Self.requests(text, kinds: kinds, limit: limit, offset: offset) {
                try expectEqualPlans(engine, request: request)
            }
        }
    }

    /// The request in every match mode, and restricted to fields with other weights.
    static func requests(_ text: String, kinds: Set<Kind>, limit: Int, offset: Int)
        -> [SearchRequest]
    {
        let valid = Set(kinds.inOrder.flatMap(\.searchableFields))
        let fields = ["first_name", "company", "name"].filter(valid.contains)
        let weights = ["company": 7.0, "name": 2, "last_name": 0].filter { valid.contains($0.key) }
        return MatchMode.allCases.map {
            SearchRequest(text: text, kinds: kinds, limit: limit, offset: offset, match: $0)
        } + [
            SearchRequest(
                text: text, kinds: kinds, limit: limit, offset: offset, match: .fuzzy,
                fields: fields, weights: weights),
            SearchRequest(
                text: text, kinds: kinds, limit: limit, offset: offset, match: .substring,
                fields: fields, weights: weights),
        ]
    }

    private func expectEqualPlans(_ engine: QueryEngine, request: SearchRequest) throws {
        do {
            let text = "\(request.text) (\(request.match), \(request.fields ?? []))"
            let fast = try engine.search(request)
            let reference = try engine.referenceSearch(request)
            #expect(fast.total == reference.total, "total of \(text)")
            #expect(
                fast.hits.map(\.record.id) == reference.hits.map(\.record.id), "order of \(text)")
            #expect(
                fast.hits.map(\.record.kind) == reference.hits.map(\.record.kind),
                "kinds of \(text)")
            #expect(fast.hits.map(\.score) == reference.hits.map(\.score), "scores of \(text)")
            #expect(
                fast.hits.map(\.wholeTokenMatches) == reference.hits.map(\.wholeTokenMatches),
                "whole-token counts of \(text)")
            #expect(fast.hits.map(\.typos) == reference.hits.map(\.typos), "typos of \(text)")
            #expect(
                fast.hits.map(\.infixMatches) == reference.hits.map(\.infixMatches),
                "infix counts of \(text)")
            #expect(fast == reference, "results of \(text)")
        }
    }
}

/// The field rule comes before whole words (see ``RankTier``): a query word that starts a
/// last name ranks that person above every person whose company holds the word whole, in the
/// fast plan (past its threshold: more company matches than the page holds) as in the
/// reference plan; and the weights say which field is the more important.
@Suite struct FieldRuleTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        var random = SeededGenerator(seed: TestSettings.seed)
        let colleagues = (0..<300).map { number in
            ("Lee", "Wong\(number)", "Hạn Trading")
        }
        let hansens = (0..<30).map { number in ("Pat\(number)", "Hansen", "Acme") }
        try index.importPeople((colleagues + hansens).shuffled(using: &random))
        try index.importAnimals(["Han", "Hansel"])
    }

    @Test(arguments: [MatchMode.prefix, .fuzzy, .substring])
    func aLastNamePrefixRanksAboveACompanyWordEqualToTheQuery(match: MatchMode) throws {
        let request = SearchRequest(text: "han", kinds: .people, limit: 20, match: match)
        let fast = try index.search(request)
        #expect(fast == (try index.referenceSearch(request)))
        #expect(fast.total == 330)
        #expect(fast.hits.allSatisfy { $0.record[field: "last_name"] == "Hansen" })
        #expect(fast.hits.allSatisfy { $0.fieldLevels == 1 && $0.wholeTokenMatches == 0 })
        let last = try index.search(SearchRequest(text: "han", kinds: .people, offset: 30))
        #expect(last.hits.first?.record[field: "company"] == "Hạn Trading")
        #expect(last.hits.first?.fieldLevels == 0)
    }

    @Test func twoWordsCountTheFieldOfEach() throws {
        let request = SearchRequest(text: "han pat", kinds: .people, limit: 5)
        let fast = try index.search(request)
        #expect(fast == (try index.referenceSearch(request)))
        #expect(fast.hits.map(\.fieldLevels) == Array(repeating: 2, count: 5))
    }

    @Test func weightsSayWhichFieldCountsMore() throws {
        let request = SearchRequest(
            text: "han", kinds: .people, limit: 20, weights: ["company": 20])
        let fast = try index.search(request)
        #expect(fast == (try index.referenceSearch(request)))
        #expect(fast.hits.allSatisfy { $0.record[field: "company"] == "Hạn Trading" })
        // Alike weights leave the field rule out: whole words first again.
        let alike = SearchRequest(
            text: "han", kinds: .all, limit: 20, weights: ["company": 10])
        let hits = try index.search(alike)
        #expect(hits == (try index.referenceSearch(alike)))
        #expect(hits.hits.allSatisfy { $0.wholeTokenMatches == 1 && $0.fieldLevels == 0 })
    }
}

/// FTS5's own `bm25()` order for one word in companies of every length: shortest first.
@Suite struct LongColumnRankingTests {
    @Test func longerCompaniesRankLowerExactlyAsBM25Does() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        let lengths = (0..<40).map { $0 * 10 } + [16_400]
        var random = SeededGenerator(seed: TestSettings.seed)
        try index.importPeople(
            lengths.shuffled(using: &random).map { count in
                let filler = Array(repeating: "lorem", count: count).joined(separator: " ")
                return ("Pat", "Words\(count)", "Zebracorp \(filler)")
            })
        let request = SearchRequest(text: "zebracorp", kinds: .people, limit: 100)
        let fast = try index.search(request)
        let reference = try index.referenceSearch(request)
        #expect(fast == reference)
        #expect(fast.hits.map { $0.record[field: "last_name"] } == lengths.map { "Words\($0)" })
    }
}

/// The selection behind every page's threshold (``FTS5RankCollector/select(_:in:)``), against
/// sorting first: random keys, many of them tied.
@Suite struct RankSelectionTests {
    @Test(arguments: [1, 2, 17, 100, 5000])
    func selectingAPositionFindsTheKeySortingPutsThere(count: Int) {
        var random = SeededGenerator(seed: TestSettings.seed)
        let candidates = (0..<count).map { index in
            FTS5RankCollector.Candidate(
                rowid: Int64(index), value: Double(Int.random(in: 0..<8, using: &random)),
                frequency: 0, size: 1, tier: Int.random(in: 0..<3, using: &random))
        }
        let sorted = candidates.map(FTS5RankCollector.Key.init).sorted(by: >)
        for position in Set([0, count / 3, count - 1]) {
            var selected = candidates
            let key = selected.withUnsafeMutableBufferPointer {
                FTS5RankCollector.select(position, in: $0)
            }
            #expect(key == sorted[position], "position \(position) of \(count)")
            // Reordered, nothing lost: the best `position` come first.
            #expect(selected.map(\.rowid).sorted() == candidates.map(\.rowid))
            #expect(selected.prefix(position).allSatisfy { FTS5RankCollector.Key($0) >= key })
            #expect(
                selected.dropFirst(position + 1).allSatisfy { FTS5RankCollector.Key($0) <= key })
        }
    }

    /// Two halves of a query's rows, collected apart and absorbed, keep what one collection of
    /// all of them keeps, also when the halves or their union outgrow the selection limit
    /// (``FTS5RankCollector/absorb(_:)`` then selects as it takes the other half's rows in):
    /// 60,000 rows of random hits and sizes, at capacities whose limit each half passes, only
    /// their union passes, or neither does.
    @Test(arguments: [20, 3_000, 20_000, 40_000])
    func absorbedHalvesKeepWhatOneCollectionKeeps(capacity: Int) throws {
        let directory = try TemporaryDirectory()
        let plan = try Self.planOfAnn(in: directory)
        let rows: ClosedRange<Int64> = 1...60_000
        var random = SeededGenerator(seed: TestSettings.seed)
        let hits = rows.map { _ in
            (UInt32.random(in: 1...3, using: &random), Int.random(in: 0..<3, using: &random))
        }
        let sizes = rows.map { _ in Int32.random(in: 3...40, using: &random) }
        func collect(_ part: ClosedRange<Int64>) -> FTS5RankCollector {
            let collector = FTS5RankCollector(plan: plan, capacity: capacity)
            collector.start(rowCount: 1_000_000, tokenCount: 9_000_000, matchPhraseRows: [])
            for rowid in part {
                let (count, column) = hits[Int(rowid) - 1]
                collector.beginRow()
                collector.recordHits(count, ofPhrase: 0, inColumn: column)
                _ = collector.endRow(rowid: rowid) { size in
                    size = sizes[Int(rowid) - 1]
                    return SQLiteResultCode.ok.rawValue
                }
            }
            return collector
        }
        let whole = collect(rows)
        let lower = collect(1...30_000)
        lower.absorb(collect(30_001...60_000))
        #expect(lower.total == whole.total)
        let halves = FTS5RankCollector.Ranked.best(capacity, of: try lower.finish())
        let all = FTS5RankCollector.Ranked.best(capacity, of: try whole.finish())
        #expect(halves.count >= min(capacity, rows.count))
        #expect(halves.count == all.count)
        // The first row that differs, rather than every row printed.
        let difference = zip(halves, all).enumerated().first { _, pair in
            pair.0.rowid != pair.1.rowid || pair.0.score != pair.1.score
        }?.offset
        #expect(difference == nil, "halves and whole differ from position \(difference ?? 0) on")
    }

    /// The threshold rises to a better tier as soon as a page's count of candidates rank in
    /// it, not only when the candidates next outgrow the selection limit: the rows of the tier
    /// below are then left out by their tier alone, their positions never decoded (a
    /// one-letter search's every name starting with the letter, under the field rule).
    @Test func theThresholdRisesOnceAPageOfCandidatesRankInABetterTier() throws {
        let directory = try TemporaryDirectory()
        let plan = try Self.planOfAnn(in: directory)
        let capacity = 20
        let collector = FTS5RankCollector(plan: plan, capacity: capacity)
        collector.start(rowCount: 1_000_000, tokenCount: 9_000_000, matchPhraseRows: [])
        func tier(whole: Int) -> Int {
            RankTier(
                fieldLevels: plan.topFieldLevel, wholeTokenMatches: whole, typos: 0,
                infixMatches: 0, accentMatches: 0
            ).rawValue
        }
        let hits = UnsafeMutablePointer<UInt32>.allocate(capacity: plan.weights.count)
        defer { hits.deallocate() }
        var rowid: Int64 = 0
        func add(tier: Int) {
            rowid += 1
            hits.initialize(repeating: 0, count: plan.weights.count)
            hits[0] = 1
            _ = collector.endRow(rowid: rowid, hits: hits, tier: tier) { size in
                size = 3
                return SQLiteResultCode.ok.rawValue
            }
        }
        // Past the selection limit: a threshold in the tier of prefixes.
        for _ in 0...(2 * capacity + 128) { add(tier: tier(whole: 0)) }
        #expect(!collector.endRowIfLeftOut(byTier: tier(whole: 0), rowid: rowid + 1))
        for _ in 1..<capacity { add(tier: tier(whole: 1)) }
        #expect(!collector.endRowIfLeftOut(byTier: tier(whole: 0), rowid: rowid + 1))
        add(tier: tier(whole: 1))
        #expect(collector.endRowIfLeftOut(byTier: tier(whole: 0), rowid: rowid + 1))
        #expect(collector.total == rowid + 1)
    }
}

extension FTS5RankCollector.Ranked {
    /// The best `capacity` of `rows` and every row tied with the last of them, best first
    /// (rows of one tier and score by id): what a collection must keep of its matches, and
    /// may keep more than.
    static func best(_ capacity: Int, of rows: [Self]) -> [Self] {
        let sorted = rows.sorted { a, b in (a.tier, a.score, b.rowid) > (b.tier, b.score, a.rowid) }
        guard sorted.count > capacity else { return sorted }
        let last = sorted[capacity - 1]
        return sorted.prefix { ($0.tier, $0.score) >= (last.tier, last.score) }
    }

}

extension RankSelectionTests {
    /// The plan of the people's search for `ann` in an index of one person, for feeding a
    /// collector rows by hand.
    static func planOfAnn(in directory: TemporaryDirectory) throws -> MatchPlan {
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople([("Ann", "Smith", "Acme")])
        let engine = QueryEngine(database: index.database, tokenizer: try index.tokenizer)
        return try #require(
            try engine.plans(for: SearchRequest(text: "ann", kinds: .people))?.0.first)
    }
}
