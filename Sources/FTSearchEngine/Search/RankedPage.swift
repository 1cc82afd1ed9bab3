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
    /// Where the plans' matches come from (and the helper that also reads names of ties).
    let sources: MatchSources

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
        var (total, ranked, collectors) = try collect()
        let order = RankedOrder(total: total, start: start, entries: try ordered(&ranked))
        return (
            order,
            withFrontier ? try frontier(of: order, ranked: ranked, collectors: collectors) : nil
        )
    }

    /// Every plan's matches handed to a collector of the page's end: the count of all, the
    /// candidates of every plan (see ``FTS5RankCollector/finish()``), and each plan's collector
    /// (nil for a page of no rows).
    func collect() throws -> (
        total: Int, ranked: [FTS5RankCollector.Ranked], collectors: [FTS5RankCollector?]
    ) {
        var total = 0
        var ranked: [FTS5RankCollector.Ranked] = []
        var collectors: [FTS5RankCollector?] = []
        for plan in plans {
            guard capacity > 0 else {
                collectors.append(nil)
                continue
            }
            let collector = try sources.collect(plan, capacity: capacity)
            // Finished first: the rows set aside are counted as they are judged.
            let finished = try collector.finish()
            total += collector.total
            ranked = ranked.isEmpty ? finished : ranked + finished
            collectors.append(collector)
        }
        return (total, ranked, collectors)
    }

    /// The rows of `ranked` (candidates of every plan, in any order; reordered in place) at
    /// positions `start ..< offset + limit` in rank order: by (tier, score), then by sort key,
    /// kind and id where those tie.
    func ordered(_ ranked: inout [FTS5RankCollector.Ranked]) throws -> [RankedOrder.Entry] {
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
        guard !rows.isEmpty else { return [] }
        let window = (start - firstKept)..<(capacity - firstKept)
        return try SortKeyOrder(database: database).rows(at: window, of: rows[...]).map { row in
            RankedOrder.Entry(
                kind: row.kind, rowid: row.rowid, score: groups[row.group].score,
                tier: RankTier(rawValue: groups[row.group].tier))
        }
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
}
