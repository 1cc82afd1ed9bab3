import FTSearchSQLite
import FTSearchTestSupport
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit

/// A token whose other spellings some record holds (`mue` also asks for the Müllers'
/// `"\u{4}mue"*`, `jür` for `"juer"*`) is ranked while its first match phrase streams, the
/// rows the others hit set aside until every phrase's IDF is known
/// (``FTS5RankCollector/completeSetAside()``). That ranking must be FTS5's cursor's and the
/// reference plan's, to the double: rows both phrases hit, rows only another spelling hits,
/// over several segments, shared out between two connections, filtered and sorted.
@Suite struct SetAsideRowsTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    /// Names with other spellings (umlauts, digraphs written out), some in the same row as
    /// their ASCII form, some in the company only.
    static let spelled = [
        ("Anna", "Müller", "Acme"), ("Jürgen", "Mueller", "Müller GmbH"),
        ("Matthäus", "Mattsson", ""), ("Mats", "Müllerson", "Mueller & Co"),
        ("Zoë", "Mühler", "Jürgens AG"), ("Sören", "Juergens", ""), ("Björn", "Mueller", ""),
        ("Juergen", "Möller", "Moeller Bau"), ("Mattias", "Jürgensen", ""),
    ]
    static let texts = ["mue", "mul", "mül", "mat", "jur", "jür", "jue", "moe", "bjo", "sor"]

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        var random = SeededGenerator(seed: 48)
        // Three imports: three segments, each with rows of every kind.
        for _ in 0..<3 {
            var people = (0..<600).map { _ in DoclistRankingTests.randomPerson(using: &random) }
            for _ in 0..<40 { people.append(Self.spelled.randomElement(using: &random)!) }
            people.shuffle(using: &random)
            try index.importPeople(people)
        }
    }

    /// The plans of `text` in the modes that ask for other spellings, of people.
    private func plans(_ text: String) throws -> [MatchPlan] {
        let engine = QueryEngine(database: index.database, tokenizer: try index.tokenizer)
        return try [MatchMode.prefix, .exact, .fuzzy].compactMap { match in
            try engine.plans(for: SearchRequest(text: text, kinds: .people, match: match))?.0.first
        }
    }

    @Test func theStreamedRankingIsTheCursorsToTheDouble() throws {
        let database = index.database
        var setAside = 0
        for text in Self.texts {
            for plan in try plans(text) where plan.matchPhraseCount > 1 {
                var ranking = DoclistRanking(database: database, plan: plan)
                ranking.streamsAnySegments = true
                let collection = try #require(
                    try ranking.collect(
                        into: FTS5RankCollector(plan: plan, capacity: 20, on: database)))
                if !collection.collector.setAsideRows.rowids.isEmpty { setAside += 1 }
                let fromCursor = FTS5RankCollector(plan: plan, capacity: 20, on: database)
                try CursorMatches(database: database, plan: plan).collect(
                    rows: Int64.min...Int64.max, into: fromCursor)
                let rows = FTS5RankCollector.Ranked.best(20, of: try collection.collector.finish())
                let expected = FTS5RankCollector.Ranked.best(20, of: try fromCursor.finish())
                #expect(collection.collector.total == fromCursor.total, "total of \(text)")
                #expect(rows.map(\.rowid) == expected.map(\.rowid), "rows of \(text)")
                #expect(rows.map(\.score) == expected.map(\.score), "scores of \(text)")
                #expect(rows.map(\.tier) == expected.map(\.tier), "tiers of \(text)")
            }
        }
        // The walk set rows aside for most plans: the test reaches what it is about.
        #expect(setAside >= 8)
    }

    /// Each connection sets aside the rows of its own segments; merged, they rank as one.
    @Test func rowsSetAsideOnTwoConnectionsMergeIntoTheWhole() throws {
        let database = index.database
        var merged = 0
        for text in Self.texts {
            for plan in try plans(text) where plan.matchPhraseCount > 1 {
                func collection(_ segments: DoclistRanking.Segments) throws -> MatchCollection {
                    try DoclistRankingTests.collection(of: plan, in: segments, on: database)
                }
                let whole = try collection(.all)
                let first = try collection(
                    .shared(DoclistRankingTests.claims { p, _ in p % 2 == 0 }))
                let second = try collection(
                    .shared(DoclistRankingTests.claims { p, _ in p % 2 == 1 }))
                try #require(first.isDisjoint(from: second))
                first.collector.absorb(second.collector)
                let shared = FTS5RankCollector.Ranked.best(20, of: try first.collector.finish())
                let all = FTS5RankCollector.Ranked.best(20, of: try whole.collector.finish())
                #expect(first.collector.total == whole.collector.total, "total of \(text)")
                #expect(shared.map(\.rowid) == all.map(\.rowid), "rows of \(text)")
                #expect(shared.map(\.score) == all.map(\.score), "scores of \(text)")
                merged += 1
            }
        }
        #expect(merged >= 8)
    }

    /// Searches with the helper (segments shared out) are the reference plan's, and filtered
    /// and sorted ones (which the reference plan does not serve) FTS5's cursor's.
    @Test func searchesOnTwoConnectionsAreTheReferencePlans() throws {
        try index.prepareIndexes(for: .substring, of: .all)
        let tokenizer = try index.tokenizer
        let helper = RankingHelper(path: index.path)
        let engine = QueryEngine(
            database: index.database, tokenizer: tokenizer, helper: { helper },
            parallelMinimumSpan: 0)
        var cursor = QueryEngine(database: index.database, tokenizer: tokenizer)
        cursor.readsDoclists = false
        let filter = try Filter(parsing: "company = Acme OR last_name = Mueller")
        for text in Self.texts {
            for match in MatchMode.allCases {
                let plain = [
                    SearchRequest(text: text, kinds: .people, limit: 5, match: match),
                    SearchRequest(text: text, kinds: .all, limit: 30, offset: 7, match: match),
                ]
                for request in plain {
                    let fast = try engine.search(request)
                    let reference = try engine.referenceSearch(request)
                    #expect(fast.total == reference.total, "\(text) \(match)")
                    #expect(fast.hits == reference.hits, "\(text) \(match)")
                }
                var filtered = plain[0]
                filtered.filter = filter
                var sorted = plain[1]
                sorted.sort = [SortKey(field: "last_name", descending: true)]
                for request in [filtered, sorted] {
                    #expect(
                        try engine.search(request) == (try cursor.search(request)),
                        "\(text) \(match) \(request.sort)")
                }
            }
        }
    }
}
