import FTSearchSQLite

/// The fast plan for the first pages of ranked results: the same order as
/// ``QueryEngine/referenceSearch(_:request:)``, without ranking every match.
///
/// Ranking is what costs: `bm25()` reads each matching row's size and the content table gives
/// each its sort key, about 1 µs a row, and a one-letter prefix matches hundreds of thousands.
/// Here one pass over the matches (see ``FTS5RankCollector``) counts them, finds each row's
/// whole-token count from the hits, and reads the size of only those rows whose best possible
/// score can still reach the page; then only the rows of the (whole-token count, score) groups
/// that reach into the page are ordered by sort key, kind and id: for the first pages every
/// row from the best (the ``RankedOrder`` the cache keeps), for a deep page only the groups at
/// its positions, the rows ranked above them merely counted. The order and the total are
/// exactly the reference plan's (`FastRankingTests` and `DeepPageTests` compare them on
/// generated data).
struct RankedPage {
    let database: Database
    /// One plan per kind searched.
    let plans: [MatchPlan]
    let request: SearchRequest
    var helper: () -> RankingHelper? = { nil }
    var parallelMinimumSpan: Int64 = 200_000
    /// Whether plans the doclist reader serves are ranked from the doclists (see
    /// ``DoclistRanking``) rather than through FTS5's cursor.
    var readsDoclists = true

    /// The end of the page: how many of the best matches are ranked.
    private var capacity: Int { request.pageEnd }

    /// Whether the page ends beyond the rankings ``ResultCache`` keeps. Then the order begins
    /// at the page's offset: the rows before it are only counted, not ordered by sort key.
    private var isDeep: Bool { capacity > ResultCache.longestKeptRanking }

    /// The first position the order holds.
    private var start: Int { isDeep ? request.offset : 0 }

    /// The total and the matches at positions `start ..< offset + limit` in rank order.
    func order() throws -> RankedOrder { try rank(withFrontier: false).order }

    /// The order and, `withFrontier`, what bringing it up to date after writes needs (see
    /// ``RankingFrontier``): nil when a plan's order cannot be, or for a deep page. Its
    /// ``RankingFrontier/changeSequence`` is the caller's to set. Without a cache to keep it
    /// in, the frontier is not worked out.
    func rank(withFrontier: Bool) throws -> (order: RankedOrder, frontier: RankingFrontier?) {
        var total = 0
        var ranked: [FTS5RankCollector.Ranked] = []
        var collectors: [FTS5RankCollector?] = []
        for plan in plans {
            guard capacity > 0 else {
                collectors.append(nil)
                continue
            }
            let collector =
                try collectFromDoclists(plan, capacity: capacity)
                ?? collectInParallel(plan, capacity: capacity)
                ?? Self.collect(plan, capacity: capacity, in: database, rowids: .all)
            total += collector.total
            let finished = try collector.finish()
            ranked = ranked.isEmpty ? finished : ranked + finished
            collectors.append(collector)
        }
        // The groups of equal (tier, score), best first. Those that hold a position in
        // `start ..< capacity` are ordered by sort key; those wholly before `start` are
        // dropped, and the last position wanted ends inside at most one.
        let (around, firstPosition) = Self.aroundPage(&ranked, from: start, to: capacity)
        var groups: [(tier: Int, score: Double)] = []
        var rows: [(group: Int, kind: Kind, rowid: Int64)] = []
        var firstKept = 0  // the position of rows[0]
        for (position, row) in zip(firstPosition..., around) {
            if groups.last.map({ $0 != (row.tier, row.score) }) ?? true {
                guard position < capacity else { break }
                if position <= start {
                    groups.removeAll(keepingCapacity: true)
                    rows.removeAll(keepingCapacity: true)
                    firstKept = position
                }
                groups.append((row.tier, row.score))
            }
            rows.append((groups.count - 1, row.kind, row.rowid))
        }
        var entries: [RankedOrder.Entry] = []
        if !rows.isEmpty {
            let window = (start - firstKept)..<(capacity - firstKept)
            let ordered =
                try SortKeyOrder(database: database, helper: helper).rows(at: window, of: rows[...])
                ?? Array(orderedInSQL(rows, first: window.upperBound).dropFirst(window.lowerBound))
            entries = ordered.map { row in
                RankedOrder.Entry(
                    kind: row.kind, rowid: row.rowid, score: groups[row.group].score,
                    tier: RankTier(rawValue: groups[row.group].tier))
            }
        }
        let order = RankedOrder(total: total, start: start, entries: entries)
        return (
            order,
            withFrontier ? try frontier(of: order, ranked: ranked, collectors: collectors) : nil
        )
    }

    /// The candidates `ranked` (of every plan, in any order) that can hold a position in
    /// `start ..< end`, best first by (tier, score), and the position of the first of them:
    /// for a deep page the rows that rank before it are moved before it by selection (see
    /// ``Swift/UnsafeMutableBufferPointer/select(_:from:by:)``) and counted, not sorted.
    private static func aroundPage(
        _ ranked: inout [FTS5RankCollector.Ranked], from start: Int, to end: Int
    ) -> (rows: [FTS5RankCollector.Ranked], firstPosition: Int) {
        func precedes(_ a: FTS5RankCollector.Ranked, _ b: FTS5RankCollector.Ranked) -> Bool {
            (a.tier, a.score) > (b.tier, b.score)
        }
        guard start > 0 else {
            ranked.sort(by: precedes)
            return (ranked, 0)
        }
        guard start < ranked.count, start < end else { return ([], ranked.count) }
        let last = min(end, ranked.count) - 1
        ranked.withUnsafeMutableBufferPointer { ranked in
            ranked.select(start, by: precedes)
            ranked.select(last, from: start, by: precedes)
        }
        let (first, least) = (ranked[start], ranked[last])
        // The rows before `start` that tie with the row at it begin its group.
        var rows = ranked[..<start].filter { ($0.tier, $0.score) == (first.tier, first.score) }
        let firstPosition = start - rows.count
        rows += ranked[start...].filter { ($0.tier, $0.score) >= (least.tier, least.score) }
        rows.sort(by: precedes)
        return (rows, firstPosition)
    }

    /// The frontier of `order`, ranked from `ranked` (every candidate of the plans) by
    /// `collectors` (one per plan); nil when a plan is not one a frontier serves (see
    /// ``RankingFrontier``), or the matches tied with the last entry after it are of several
    /// classes.
    private func frontier(
        of order: RankedOrder, ranked: [FTS5RankCollector.Ranked],
        collectors: [FTS5RankCollector?]
    ) throws -> RankingFrontier? {
        guard !isDeep, plans.allSatisfy(RankingFrontier.serves) else { return nil }
        struct Row: Hashable {
            var kind: Kind
            var rowid: Int64
        }
        let kept = Set(order.entries.map { Row(kind: $0.kind, rowid: $0.rowid) })
        var classes: [Row: RankingFrontier.RowClass] = [:]
        var leftOut: [Kind: [FTS5RankCollector.Ranked]] = [:]
        for row in ranked {
            if kept.contains(Row(kind: row.kind, rowid: row.rowid)) {
                classes[Row(kind: row.kind, rowid: row.rowid)] = RankingFrontier.RowClass(row)
            } else {
                leftOut[row.kind, default: []].append(row)
            }
        }
        var entryClasses: [RankingFrontier.RowClass] = []
        for entry in order.entries {
            guard let rowClass = classes[Row(kind: entry.kind, rowid: entry.rowid)] else {
                return nil
            }
            entryClasses.append(rowClass)
        }
        var parts: [RankingFrontier.Part] = []
        let last = order.entries.last
        for (plan, collector) in zip(plans, collectors) {
            guard
                var part = RankingFrontier.Part(
                    kind: plan.kind, index: plan.index, total: collector?.total ?? 0,
                    in: database)
            else { return nil }
            if let best = collector?.bestLeftOut {
                part.noteLeftOut(tier: best.tier, value: best.value)
            }
            for row in leftOut[plan.kind] ?? [] {
                if let last, row.tier == last.tier.rawValue, row.score == last.score {
                    let rowClass = RankingFrontier.RowClass(row)
                    guard part.continuation == nil || part.continuation == rowClass else {
                        return nil
                    }
                    part.continuation = rowClass
                } else {
                    part.noteLeftOut(tier: row.tier, value: row.value)
                }
            }
            parts.append(part)
        }
        var lastSortKey: [UInt8] = []
        if let last {
            var keys = SortKeys(database: database)
            guard let key = keys.key(of: last.kind, rowid: last.rowid) else { return nil }
            lastSortKey = key
        }
        return RankingFrontier(
            changeSequence: 0, parts: parts, entryClasses: entryClasses, lastSortKey: lastSortKey)
    }

    /// The `first` of `rows` ordered as ``SortKeyOrder`` orders them, by SQLite.
    private func orderedInSQL(_ rows: [(group: Int, kind: Kind, rowid: Int64)], first: Int)
        throws -> [(group: Int, kind: Kind, rowid: Int64)]
    {
        var members: [Kind: [String]] = [:]
        for row in rows {
            members[row.kind, default: []].append("[\(row.rowid),\(row.group)]")
        }
        let kinds = plans.map(\.kind).filter { members[$0] != nil }
        var arguments: StatementArguments = kinds.map {
            "[" + members[$0, default: []].joined(separator: ",") + "]"
        }
        arguments.append(first)
        var ordered: [(group: Int, kind: Kind, rowid: Int64)] = []
        try database.cachedStatement(sql: orderSQL(for: kinds)).forEachRow(arguments) { row in
            ordered.append((row.int(at: 2), Kind(selectedAt: 0, of: row), row.int64(at: 1)))
        }
        return ordered
    }

    /// Which rows of the matches to collect.
    enum RowidRange {
        case all
        case upTo(Int64)
        case above(Int64)
        /// These rows only.
        case listed([Int64])
    }

    /// A collector of `plan`'s best `capacity` matches, reading row sizes on `database`.
    static func makeCollector(
        _ plan: MatchPlan, capacity: Int, database: Database
    ) -> FTS5RankCollector {
        FTS5RankCollector(
            plan: plan, capacity: capacity, database: database,
            sizeTable: "\(plan.index)_docsize",
            rowSizes: FullTextIndex.all(of: plan.kind).first { $0.name == plan.index }.map {
                RowSizes(of: $0, kind: plan.kind)
            }
        )
    }

    /// `plan`'s matches collected from the index's doclists; nil when the reader does not
    /// serve the plan. One token of one match phrase on a large table is read on two
    /// connections at once, the helper's too: each taking the next segment whenever it is done
    /// with one (see ``SegmentClaims``), when those turn out to hold disjoint rowids (as a bulk
    /// import's segments do) and the same structure, else each connection reading every
    /// segment and ranking one half of the rowids (after writes, whose small segments hold
    /// rowids from all over). A plan of several match phrases (two tokens) is read in halves
    /// of the segments, decoded first and then scored (see
    /// ``DoclistRanking/collectInHalves(helper:collector:)``).
    private func collectFromDoclists(_ plan: MatchPlan, capacity: Int) throws
        -> FTS5RankCollector?
    {
        guard readsDoclists else { return nil }
        let ranking = DoclistRanking(database: database, plan: plan)
        @Sendable func collector(on database: Database) -> FTS5RankCollector {
            Self.makeCollector(plan, capacity: capacity, database: database)
        }
        if plan.tokenCount == 1, plan.matchPhraseCount == 1,
            let span = try rowidSpan(of: plan.kind), isWide(span), let helper = helper()
        {
            // Any failure of the helper only costs the parallelism.
            if try !ranking.splitsByRowid() {
                let claims = SegmentClaims()
                let parts = try helper.sharing(database) { database in
                    try DoclistRanking(database: database, plan: plan).collect(
                        into: collector(on: database), segments: .shared(claims))
                }
                if let parts, let merged = Self.merged(parts) { return merged }
            }
            let middle = span.lowest / 2 + span.highest / 2
            let (lower, upper) = try helper.inHalves(database) {
                try ranking.collect(into: collector(on: database), rows: Int64.min...middle)
            } theirs: { database in
                try DoclistRanking(database: database, plan: plan).collect(
                    into: collector(on: database), rows: (middle + 1)...Int64.max)
            }
            if let lower, let upper = upper ?? nil, lower.structure == upper.structure {
                lower.collector.absorb(upper.collector)
                return lower.collector
            }
        }
        if plan.matchPhraseCount > 1, let span = try rowidSpan(of: plan.kind), isWide(span),
            let helper = helper(), try !ranking.splitsByRowid(),
            let collector = try ranking.collectInHalves(helper: helper, collector: collector(on:))
        {
            return collector
        }
        return try ranking.collect(into: collector(on: database))?.collector
    }

    /// The collectors of `parts` in one; nil when one could not be collected, or two read
    /// other versions or may hold a rowid in common.
    private static func merged(_ parts: [DoclistRanking.Collection?]) -> FTS5RankCollector? {
        let collected = parts.compactMap { $0 }
        guard let first = collected.first, collected.count == parts.count,
            collected.indices.allSatisfy({ one in
                collected[one].structure == first.structure
                    && collected[..<one].allSatisfy { $0.isDisjoint(from: collected[one]) }
            })
        else { return nil }
        for part in collected.dropFirst() { first.collector.absorb(part.collector) }
        return first.collector
    }

    /// Whether `kind`'s rowids span at least ``parallelMinimumSpan``, so that ranking it in two
    /// halves at once is worth a second connection.
    private func spansWidely(_ kind: Kind) throws -> Bool {
        try rowidSpan(of: kind).map(isWide) ?? false
    }

    /// Whether ids from `lowest` through `highest` span at least ``parallelMinimumSpan``.
    private func isWide(_ span: (lowest: Int64, highest: Int64)) -> Bool {
        let (width, overflow) = span.highest.subtractingReportingOverflow(span.lowest)
        return overflow || width >= parallelMinimumSpan
    }

    /// The lowest and highest id of `kind`, nil when it has no records.
    private func rowidSpan(of kind: Kind) throws -> (lowest: Int64, highest: Int64)? {
        try database
            .cachedStatement(
                sql:
                    "SELECT (SELECT min(id) FROM \(kind.tableName)), (SELECT max(id) FROM \(kind.tableName))"
            )
            .firstRow { row -> (lowest: Int64, highest: Int64)? in
                row.isNull(at: 0) ? nil : (row.int64(at: 0), row.int64(at: 1))
            } ?? nil
    }

    /// Runs the ranking query of `plan` over its matches in `rowids`, on `database`, keeping
    /// the best `capacity`.
    static func collect(
        _ plan: MatchPlan, capacity: Int, in database: Database, rowids: RowidRange
    ) throws -> FTS5RankCollector {
        let collector = makeCollector(plan, capacity: capacity, database: database)
        let statement = try rankStatement(for: plan.index, rowids: rowids, in: database)
        try statement.bind(plan.rankQuery, at: 1)
        try statement.bind(collector, at: 2)
        switch rowids {
        case .all: break
        case .upTo(let rowid), .above(let rowid): try statement.bind(rowid, at: 3)
        case .listed(let rowids):
            try statement.bind("[" + rowids.map(String.init).joined(separator: ",") + "]", at: 3)
        }
        defer { statement.reset() }
        defer { collector.closeSizeReader() }
        while try statement.step() {}
        return collector
    }

    /// For one token on a large table: the lower half of the rowids here, the upper half on the
    /// helper's connection at the same time. Nil when not worth it, or when another connection
    /// committed meanwhile (then the halves might have read different versions).
    private func collectInParallel(_ plan: MatchPlan, capacity: Int) throws
        -> FTS5RankCollector?
    {
        guard plan.tokenCount == 1, let (lowest, highest) = try rowidSpan(of: plan.kind),
            isWide((lowest, highest)), let helper = helper()
        else { return nil }
        let middle = lowest / 2 + highest / 2
        let versionBefore = try dataVersion()
        let (lower, upper) = try helper.inHalves(database) {
            try Self.collect(plan, capacity: capacity, in: database, rowids: .upTo(middle))
        } theirs: { database in
            try Self.collect(plan, capacity: capacity, in: database, rowids: .above(middle))
        }
        // Any failure of the helper (say, the file was replaced) only costs the parallelism.
        guard let upper, try dataVersion() == versionBefore else { return nil }
        lower.absorb(upper)
        return lower
    }

    /// Changes whenever another connection commits (https://sqlite.org/pragma.html#pragma_data_version).
    private func dataVersion() throws -> Int? {
        try database.cachedStatement(sql: "PRAGMA data_version").firstRow { $0.int(at: 0) }
    }

    private static func rankStatement(for index: String, rowids: RowidRange, in database: Database)
        throws -> Statement
    {
        let range =
            switch rowids {
            case .all: ""
            case .upTo: "AND rowid <= ?3 "
            case .above: "AND rowid > ?3 "
            case .listed: "AND rowid IN (SELECT value FROM json_each(?3)) "
            }
        let sql =
            "SELECT 1 FROM \(index) WHERE \(index) MATCH ?1 \(range)"
            + "AND \(FTS5RankFunction.name)(\(index), ?2)"
        return try database.cachedStatement(sql: sql)
    }

    /// The first `?N` rows, from `[[rowid, group], ...]` per kind (one parameter each, then the
    /// count): `kind, id, group` ordered as the reference plan orders them.
    private func orderSQL(for kinds: [Kind]) -> String {
        let selects = kinds.enumerated().map { offset, kind in
            """
            SELECT '\(kind.rawValue)' AS kind, c.id AS id, j.value ->> 1 AS grp,
                   \(SortName.sql(of: kind, table: "c")) AS sort_key
            FROM json_each(?\(offset + 1)) AS j JOIN \(kind.tableName) AS c ON c.id = j.value ->> 0
            """
        }
        return selects.joined(separator: "\nUNION ALL\n")
            + "\nORDER BY grp, sort_key COLLATE NOCASE, kind, id LIMIT ?\(kinds.count + 1)"
    }
}
