@testable import FTSearchFormats
import FTS5Segments
import FTSearchSQLite
import Synchronization
import Testing
import FTSearchTestSupport
@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit

/// The doclist reader (``DoclistRanking``) must rank exactly as FTS5's cursor and the
/// reference plan do, in every mode, with column filters and weights, over segments left by
/// imports, random writes (overlapping segments, delete markers), automerges and `optimize`;
/// must give back the plans and indexes it does not serve; and must never crash on a
/// corrupted page.
@Suite struct DoclistRankingTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        var random = SeededGenerator(seed: 11)
        let people = (0..<3000).map { _ in Self.randomPerson(using: &random) }
        // Columns of more than 127, 255 and 16,383 tokens (several varint bytes in the
        // docsize table, a row size byte of 255, position lists spanning leaf pages).
        let long = [130, 260, 300, 16_400].map { count in
            (
                "Ann", "Long\(count)",
                "Acme " + Array(repeating: "amber", count: count).joined(separator: " ")
            )
        }
        try index.importPeople(people + long)
        try index.importPeople((0..<500).map { _ in Self.randomPerson(using: &random) })
        try index.importAnimals(
            (0..<300).map { _ in FastRankingTests.firstNames.randomElement(using: &random)! })
        try index.prepareIndexes(for: .substring, of: .all)
    }

    static func randomPerson(using random: inout SeededGenerator) -> (String, String, String) {
        (
            FastRankingTests.firstNames.randomElement(using: &random)!,
            FastRankingTests.lastNames.randomElement(using: &random)!,
            FastRankingTests.companies.randomElement(using: &random)!
        )
    }

    static let texts = [
        "a", "an", "ann", "anna", "annab", "m", "mu", "mül", "müller", "s", "sm", "smith", "zz",
        "a a", "ann smi", "an mu", "bo s", "søren", "a/s", "acme", "amber", "long16400",
        "an", "anm", "smiht",
        // The smaller token last: decoded first, the other's hits counted for its rows only.
        "a smith", "s bo",
    ]

    /// Every match mode, and field-restricted requests with other weights.
    static func requests(_ text: String) -> [SearchRequest] {
        FastRankingTests.requests(text, kinds: .all, limit: 20, offset: 0)
            + [
                SearchRequest(
                    text: text, kinds: .people, limit: 3, offset: 0,
                    weights: ["company": 0.3, "first_name": 1.7])
            ]
    }

    /// Compares the reader's results with FTS5's cursor and the reference plan for every text,
    /// and returns how many plans the reader served.
    @discardableResult
    private func expectReaderEqualsCursor(_ label: String) throws -> Int {
        let tokenizer = try index.tokenizer
        let reader = QueryEngine(database: index.database, tokenizer: tokenizer)
        var cursor = reader
        cursor.readsDoclists = false
        // Searches read the two halves of the segments on two connections at once: one-word
        // ones rank each half apart, those of several match phrases decode both, then score.
        let helper = RankingHelper(path: index.path)
        let inHalves = QueryEngine(
            database: index.database, tokenizer: tokenizer, helper: { helper },
            parallelMinimumSpan: 0)
        let database = index.database
        var served = 0
        for text in Self.texts {
            for request in Self.requests(text) {
                let name = "\(label): \(text) (\(request.match), \(request.fields ?? []))"
                let fromDoclists = try reader.search(request)
                #expect(fromDoclists == (try cursor.search(request)), "cursor: \(name)")
                #expect(fromDoclists == (try reader.referenceSearch(request)), "reference: \(name)")
                #expect(fromDoclists == (try inHalves.search(request)), "halves: \(name)")
                guard let (plans, _) = try reader.plans(for: request) else { continue }
                for plan in plans {
                    let collector = FTS5RankCollector(plan: plan, capacity: 20, on: database)
                    if try DoclistRanking(database: index.database, plan: plan).collect(
                        into: collector) != nil
                    {
                        served += 1
                    } else {
                        // Every plan is the reader's, phrases of several trigrams included.
                        Issue.record("not served: \(name)")
                    }
                }
            }
        }
        return served
    }

    @Test func readerEqualsCursorAndReferenceAfterImports() throws {
        #expect(try expectReaderEqualsCursor("imported") > 100)
        // Its read transaction ends with the search, so the next one sees later writes.
        #expect(index.database.isAutocommit)
    }

    @Test func readerEqualsCursorAfterRandomWritesMergesAndOptimize() throws {
        var random = SeededGenerator(seed: 23)
        let database = index.database
        for round in 0..<12 {
            try database.inTransaction {
                for _ in 0..<40 {
                    let id = Int64.random(in: 1...3504, using: &random)
                    let (first, last, company) = Self.randomPerson(using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0:
                        try database.execute(
                            sql:
                                "UPDATE people SET first_name = ?, last_name = ?, company = ? WHERE id = ?",
                            arguments: [first, last, company, id])
                    case 1:
                        try database.execute(
                            sql: "DELETE FROM people WHERE id = ?", arguments: [id])
                    default:
                        try database.execute(
                            sql:
                                "INSERT INTO people(first_name, last_name, company, created_at, updated_at) VALUES (?, ?, ?, 0, 0)",
                            arguments: [first, last, company])
                    }
                }
            }
            if round == 5 { try expectReaderEqualsCursor("after writes") }
        }
        let segments = try database.fetchInt(
            sql:
                "SELECT count(*) FROM people_fts_data WHERE id >= 137438953472 AND (id & 2147483647) = 1"
        )
        #expect((segments ?? 0) > 2, "writes left several segments")
        try expectReaderEqualsCursor("after more writes and automerges")
        _ = try index.optimize()
        try expectReaderEqualsCursor("optimized")
    }

    /// A one-word search scores the doclist as it decodes it (``StreamedRowScorer``) when the
    /// rowids ascend through the segments, oldest first, as two imports leave them; after
    /// writes they do not, and it ranks again the general way, from nothing. Both must give
    /// FTS5's cursor's ranking.
    @Test(arguments: ["two imports", "rows rewritten"])
    func scoringWhileDecodingEqualsTheCursor(layout: String) throws {
        var random = SeededGenerator(seed: 31)
        let directory = try TemporaryDirectory()
        let index = layout == "two imports" ? try SearchIndex.temporary(in: directory) : index
        let database = index.database
        if layout == "two imports" {
            for _ in 0..<2 {
                try index.importPeople((0..<1500).map { _ in Self.randomPerson(using: &random) })
            }
        } else {
            try database.inTransaction {
                for id in Int64(1)...300 {
                    let (first, last, company) = Self.randomPerson(using: &random)
                    try database.execute(
                        sql:
                            "UPDATE people SET first_name = ?, last_name = ?, company = ? WHERE id = ?",
                        arguments: [first, last, company, id])
                }
            }
        }
        let engine = QueryEngine(database: database, tokenizer: try index.tokenizer)
        for text in ["a", "an", "ann", "m", "smith", "zz"] {
            let request = SearchRequest(text: text, kinds: .people, limit: 20)
            let plan = try #require(try engine.plans(for: request)?.0.first)
            var ranking = DoclistRanking(database: database, plan: plan)
            ranking.streamsAnySegments = true
            let fromDoclists = try #require(
                try ranking.collect(
                    into: FTS5RankCollector(plan: plan, capacity: 20, on: database)))
            let fromCursor = FTS5RankCollector(plan: plan, capacity: 20, on: database)
            try CursorMatches(database: database, plan: plan).collect(
                rows: Int64.min...Int64.max, into: fromCursor)
            #expect(fromDoclists.collector.total == fromCursor.total, "\(layout): \(text)")
            let rows = try fromDoclists.collector.finish()
            let expected = try fromCursor.finish()
            #expect(rows.map(\.rowid) == expected.map(\.rowid), "\(layout): \(text)")
            #expect(rows.map(\.score) == expected.map(\.score), "\(layout): \(text)")
        }
    }

    /// Segments shared out between two connections, in any split, rank into the whole: each
    /// connection ranks the segments its claims give it, oldest first, streamed or decoded,
    /// and the two collections merge into the collection of every segment.
    @Test(arguments: ["alternate", "older half", "all to one"])
    func segmentsSharedOutMergeIntoTheWhole(split: String) throws {
        // A third import: three segments, so that a connection's share can hold two that
        // are not next to each other.
        var random = SeededGenerator(seed: 12)
        try index.importPeople((0..<700).map { _ in Self.randomPerson(using: &random) })
        let database = index.database
        let engine = QueryEngine(database: database, tokenizer: try index.tokenizer)
        /// Whether the first connection takes the segment at `position` (oldest first).
        let isFirst: @Sendable (_ position: Int, _ count: Int) -> Bool =
            switch split {
            case "alternate": { position, _ in position % 2 == 0 }
            case "older half": { position, count in position < (count + 1) / 2 }
            default: { _, _ in true }
            }
        var merged = 0
        var bothRead = 0
        var firstReadSeveral = 0
        for text in Self.texts {
            let request = SearchRequest(text: text, kinds: .people, limit: 20)
            // Several match phrases need every segment for their IDFs.
            guard let plan = try engine.plans(for: request)?.0.first, plan.matchPhraseCount == 1
            else { continue }
            func collection(_ segments: DoclistRanking.Segments) throws -> MatchCollection {
                try Self.collection(of: plan, in: segments, on: database)
            }
            let whole = try collection(.all)
            let first = try collection(.shared(Self.claims { isFirst($0, $1) }))
            let second = try collection(.shared(Self.claims { !isFirst($0, $1) }))
            #expect(first.structure == whole.structure)
            if !first.rowids.isEmpty && !second.rowids.isEmpty { bothRead += 1 }
            if first.rowids.count > 1 { firstReadSeveral += 1 }
            // Two imports: the second one's rows all come after the first one's.
            try #require(first.isDisjoint(from: second))
            first.collector.absorb(second.collector)
            #expect(first.collector.total == whole.collector.total, "total of \(text)")
            // Each keeps the best 20 and their ties, and maybe more: those must be the same.
            let shared = FTS5RankCollector.Ranked.best(20, of: try first.collector.finish())
            let all = FTS5RankCollector.Ranked.best(20, of: try whole.collector.finish())
            #expect(shared.map(\.rowid) == all.map(\.rowid), "rows of \(text)")
            #expect(shared.map(\.score) == all.map(\.score), "scores of \(text)")
            #expect(shared.map(\.tier) == all.map(\.tier), "tiers of \(text)")
            merged += 1
        }
        #expect(merged > 10)
        // The index has a segment of each import: split, both read entries for most texts.
        #expect(split == "all to one" ? bothRead == 0 : bothRead > merged / 2)
        #expect(firstReadSeveral > merged / 2)
    }

    /// Segments that hold a row twice (the same ids imported again) are never shared out:
    /// one connection's share of two such segments fails (its spans do not ascend), two
    /// connections' shares of one each are not disjoint (their spans meet), and a search with
    /// the helper ranks as FTS5 does.
    @Test func segmentsHoldingARowTwiceAreNotSharedOut() throws {
        var random = SeededGenerator(seed: 13)
        let again = (1...2000).map { id in
            let (first, last, company) = Self.randomPerson(using: &random)
            return [
                ("id", JSONValue.number(String(id))), ("first_name", .string(first)),
                ("last_name", .string(last)), ("company", .string(company)),
            ]
        }
        try index.importRecords(
            from: [ImportSource(name: "again.json", reader: RecordList(fields: again))],
            options: ImportOptions())
        let database = index.database
        let engine = QueryEngine(database: database, tokenizer: try index.tokenizer)
        var cursor = engine
        cursor.readsDoclists = false
        let helper = RankingHelper(path: index.path)
        let withHelper = QueryEngine(
            database: database, tokenizer: try index.tokenizer, helper: { helper },
            parallelMinimumSpan: 0)
        var overlapping = 0
        for text in Self.texts {
            let request = SearchRequest(text: text, kinds: .people, limit: 20)
            #expect(try withHelper.search(request) == (try cursor.search(request)), "\(text)")
            guard let plan = try engine.plans(for: request)?.0.first, plan.matchPhraseCount == 1
            else { continue }
            let ranking = DoclistRanking(database: database, plan: plan)
            func collection(_ claims: SegmentClaims) throws -> MatchCollection? {
                try ranking.collect(
                    into: FTS5RankCollector(plan: plan, capacity: 20, on: database),
                    segments: .shared(claims))
            }
            let oldest = try collection(Self.claims { position, _ in position == 0 })
            let newest = try collection(Self.claims { position, count in position == count - 1 })
            let all = try collection(Self.claims { _, _ in true })
            if let oldest, let newest, !oldest.rowids.isEmpty, !newest.rowids.isEmpty {
                // The first import and the last both hold ids 1 to 2,000.
                #expect(!oldest.isDisjoint(from: newest), "\(text)")
                #expect(all == nil, "\(text)")
                // A share that fails abandons the claims: the other connection gets none.
                let shared = SegmentClaims()
                #expect(try collection(shared) == nil, "\(text)")
                #expect(shared.next(.max) == nil, "\(text)")
                overlapping += 1
            }
        }
        #expect(overlapping > Self.texts.count / 2)
    }

    /// A merge under way moves some terms' entries into its output segment and leaves the
    /// others' in its inputs, so a row's entries are in several segments: searches, on one
    /// connection or two, still rank as FTS5 does.
    @Test(arguments: [8, 40])
    func aMergeUnderWayRanksAsFTS5Does(pages: Int) throws {
        var random = SeededGenerator(seed: 14)
        for _ in 0..<4 {
            try index.importPeople((0..<1500).map { _ in Self.randomPerson(using: &random) })
        }
        let database = index.database
        try database.execute(
            sql: "INSERT INTO people_fts(people_fts, rank) VALUES ('merge', \(pages))")
        let tokenizer = try index.tokenizer
        let engine = QueryEngine(database: database, tokenizer: tokenizer)
        var cursor = engine
        cursor.readsDoclists = false
        let helper = RankingHelper(path: index.path)
        let withHelper = QueryEngine(
            database: database, tokenizer: tokenizer, helper: { helper }, parallelMinimumSpan: 0)
        for text in Self.texts {
            let request = SearchRequest(text: text, kinds: .people, limit: 20)
            let expected = try cursor.search(request)
            #expect(try engine.search(request) == expected, "one connection: \(text)")
            #expect(try withHelper.search(request) == expected, "two: \(text)")
        }
    }

    /// Claims of the segments whose position (oldest first) and count `takes` accepts, in
    /// order.
    /// `plan`'s matches in `segments`, collected for a page of 20 on `database`.
    static func collection(
        of plan: MatchPlan, in segments: DoclistRanking.Segments, on database: Database
    ) throws -> MatchCollection {
        try #require(
            try DoclistRanking(database: database, plan: plan).collect(
                into: FTS5RankCollector(plan: plan, capacity: 20, on: database),
                segments: segments))
    }

    static func claims(_ takes: @escaping @Sendable (Int, Int) -> Bool) -> SegmentClaims {
        let next = Mutex(0)
        return SegmentClaims { count in
            next.withLock { position in
                while position < count, !takes(position, count) { position += 1 }
                defer { position += 1 }
                return position < count ? position : nil
            }
        }
    }

    /// A phrase of several trigrams hits only where its terms follow each other in one
    /// column: not across words, columns or gaps, and each time it does.
    @Test func trigramPhrasesHitWhereTheirTermsFollowEachOther() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople([
            ("Ann", "Nna", "Anna"),  // "ann" and "nna" in other columns; "anna" in one
            ("Ann Nna", "X", "Y"),  // in one column, in two words
            ("Annanna", "Hannah", "Nnann"),  // twice in one word, and in words' ends
            ("Joanna", "Nnab", "Bann Annab"),
            ("Zed", "Zoe", "Zane"),
        ])
        try index.prepareIndexes(for: .substring, of: .all)
        let engine = QueryEngine(database: index.database, tokenizer: try index.tokenizer)
        var cursor = engine
        cursor.readsDoclists = false
        for text in ["anna", "nna", "annab", "nann", "an", "nn", "ann nna", "a"] {
            for request in Self.requests(text) where request.match == .substring {
                let results = try engine.search(request)
                #expect(results == (try cursor.search(request)), "cursor: \(text)")
                #expect(results == (try engine.referenceSearch(request)), "reference: \(text)")
                // (The animals' index is empty: no averages record, the cursor's.)
                for plan in try #require(try engine.plans(for: request)?.0)
                where plan.kind == .people {
                    let collector = FTS5RankCollector(plan: plan, capacity: 20, on: index.database)
                    #expect(
                        try DoclistRanking(database: index.database, plan: plan).collect(
                            into: collector) != nil, "served: \(text)")
                }
            }
        }
        let anna = try engine.search(
            SearchRequest(text: "anna", kinds: .people, match: .substring))
        #expect(
            anna.hits.compactMap { $0.record[field: "first_name"] }.sorted()
                == ["Ann", "Annanna", "Joanna"])
    }

    @Test func anOpenWriteTransactionFallsBackToTheCursor() throws {
        let engine = QueryEngine(database: index.database, tokenizer: try index.tokenizer)
        let request = SearchRequest(text: "ann", kinds: .people, limit: 20)
        let plan = try #require(try engine.plans(for: request)?.0.first)
        let database = index.database
        try database.inTransaction {
            try index.database.execute(sql: "DELETE FROM people WHERE id = 1")
            let collector = FTS5RankCollector(plan: plan, capacity: 20, on: database)
            #expect(
                try DoclistRanking(database: index.database, plan: plan).collect(into: collector)
                    == nil)
            #expect(try engine.search(request) == (try engine.referenceSearch(request)))
        }
    }

    /// A search's cancellation reaches the reader between its pages and rows, not only at
    /// SQLite's statements: it then gives the plan back (FTS5's cursor stops at its first step).
    @Test func aCancellationStopsTheReaderMidway() throws {
        let engine = QueryEngine(database: index.database, tokenizer: try index.tokenizer)
        let request = SearchRequest(text: "a", kinds: .people, limit: 20)
        let plan = try #require(try engine.plans(for: request)?.0.first)
        let asked = Mutex(0)
        func collect(stoppingAfter calls: Int) throws -> MatchCollection? {
            asked.withLock { $0 = 0 }
            // SQLite itself asks only every 2^31 steps: the calls are the reader's.
            return try index.database.interruptingStatements(
                when: {
                    asked.withLock { count in
                        count += 1; return count > calls
                    }
                },
                every: .max
            ) {
                try DoclistRanking(database: index.database, plan: plan).collect(
                    into: FTS5RankCollector(plan: plan, capacity: 20, on: index.database))
            }
        }
        #expect(try collect(stoppingAfter: .max) != nil)
        let readerChecks = asked.withLock { $0 }
        #expect(readerChecks > 3)
        #expect(try collect(stoppingAfter: readerChecks / 2) == nil)
    }

    @Test func indexesOfOtherFormatsAreNotRead() throws {
        let database = index.database
        #expect(
            try IndexOptions(
                of: "people_fts", in: database, formatVersion: DoclistRanking.knownFormatVersion)?
                .prefixLengths == [1, 2, 3])
        try database.execute(
            sql:
                "CREATE VIRTUAL TABLE columns_only USING fts5(a, tokenize='ftsearch', detail=column)"
        )
        #expect(
            try IndexOptions(
                of: "columns_only", in: database, formatVersion: DoclistRanking.knownFormatVersion)
                == nil)
        try database.execute(sql: "CREATE VIRTUAL TABLE later USING fts5(a, tokenize='ftsearch')")
        try database.execute(sql: "UPDATE later_config SET v = 5 WHERE k = 'version'")
        #expect(
            try IndexOptions(
                of: "later", in: database, formatVersion: DoclistRanking.knownFormatVersion) == nil)
        // A V2 structure record (contentless_delete=1) begins FF 00 00 01 after the cookie.
        #expect(throws: FTS5FormatError.self) {
            try FTS5Structure(
                structure: [0, 0, 0, 1, 0xFF, 0, 0, 1, 0], averages: [1, 1], columnCount: 1)
        }
    }

    @Test(arguments: 0..<6)
    func corruptedPagesGiveAnErrorOrTheFallbackNeverACrash(seed: Int) throws {
        let copy = directory.path + "/corrupt-\(seed).db"
        try index.database.execute(sql: "VACUUM INTO ?", arguments: [copy])
        let corrupted = try SearchIndex(path: copy)
        let database = corrupted.database
        var random = SeededGenerator(seed: UInt64(100 + seed))
        var ids: [Int64] = []
        try database.makeStatement(sql: "SELECT id FROM people_fts_data WHERE id > 10").forEachRow {
            ids.append($0.int64(at: 0))
        }
        for id in ids.shuffled(using: &random).prefix(20) {
            var block =
                try database.makeStatement(sql: "SELECT block FROM people_fts_data WHERE id = ?")
                .firstRow([id]) { $0.bytes(at: 0) } ?? []
            guard !block.isEmpty else { continue }
            if Bool.random(using: &random) {
                block.removeLast(Int.random(in: 1...block.count, using: &random))
            } else {
                for _ in 0..<4 {
                    block[Int.random(in: 0..<block.count, using: &random)] ^= UInt8.random(
                        in: 1...255, using: &random)
                }
            }
            try database.execute(
                sql: "UPDATE people_fts_data SET block = ? WHERE id = ?", arguments: [block, id])
        }
        let engine = QueryEngine(database: database, tokenizer: try corrupted.tokenizer)
        var served = 0
        for text in Self.texts {
            let request = SearchRequest(text: text, kinds: .people, limit: 20)
            guard let plan = try engine.plans(for: request)?.0.first else { continue }
            let collector = FTS5RankCollector(plan: plan, capacity: 20, on: database)
            // Either the reader gives the plan back, or it ranked what it could decode, or it
            // throws; it never crashes. The search itself then ranks or reports an error.
            if (try? DoclistRanking(database: database, plan: plan).collect(into: collector)) != nil
            {
                served += 1
            }
            _ = try? engine.search(request)
        }
        #expect(served < Self.texts.count, "some plans met a corrupted page")
    }
}
