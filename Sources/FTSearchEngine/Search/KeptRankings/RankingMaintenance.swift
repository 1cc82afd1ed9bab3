import FTS5Segments
import FTSearchSQLite

/// Brings a kept ranking up to date with the writes since it was ranked, from the
/// ``SearchChanges`` log and its ``RankingFrontier``, instead of ranking again: the next search
/// of a short prefix after an `add`, `update` or `delete` costs what the changed records cost,
/// not a first search.
///
/// For each plan, the records changed since are looked up: what they were before (the log,
/// tokenized as the index tokenized them: whether they matched), and what they are now (FTS5's
/// own ranking query on those rows only: their tiers, values and sizes). That gives the plan's
/// new total, and with the index's new row and token counts every kept entry's new score; the
/// changed rows leave the order, and those that match now come in where they rank. The order
/// is then cut where the frontier can no longer vouch for it: before the first entry that a
/// match it does not hold might now outrank (see ``RankingFrontier``). What remains is exactly
/// the reference plan's first entries; when it no longer reaches the page asked for, or
/// anything is not as the frontier expects (more changes than ``changeLimit``, a bulk write, a
/// row count the log does not explain, scores that now tie across classes), it gives nil and
/// the search ranks again.
struct RankingMaintenance {
    let database: Database
    let plans: [MatchPlan]
    /// The word indexes' tokenizer (``FoldingTokenizer``), which the plans it serves are of.
    let tokenizer: FTS5Tokenizer

    /// Beyond this many changed records of a kind, ranking again is cheaper.
    static let changeLimit = 1000

    /// `order`, ranked with `frontier`, as it is now, when that reaches position `end`.
    func update(_ order: RankedOrder, frontier: RankingFrontier, covering end: Int) throws
        -> RankedOrder?
    {
        guard !database.isWriting, order.start == 0,
            frontier.parts.count == plans.count, frontier.entryClasses.count == order.entries.count,
            zip(plans, frontier.parts).allSatisfy({
                $0.kind == $1.kind && RankingFrontier.serves($0)
            })
        else { return nil }
        return try database.readingOneVersion {
            try update(order, frontier: frontier, end: end)
        }
    }

    /// One plan's state now: its statistics, and its changed rows.
    private struct PlanNow {
        var rowCount: Int64
        var tokenCount: Int64
        var total: Int
        var idf: Double
        /// The plan's rows changed since, which the kept order must drop.
        var changed: Set<Int64>
        /// Those of them that match now, with their tiers, values and sizes.
        var matching: [FTS5RankCollector.Ranked]
    }

    private struct Row {
        var kind: Kind
        var rowid: Int64
        var tier: Int
        var score: Double
        /// Its (tier, score) when ranked; nil for a row changed since.
        var before: (tier: Int, score: Double)?
    }

    private func update(_ order: RankedOrder, frontier: RankingFrontier, end: Int) throws
        -> RankedOrder?
    {
        var now: [PlanNow] = []
        for (plan, part) in zip(plans, frontier.parts) {
            guard
                let state = try state(
                    of: plan, part: part, since: frontier.changeSequence,
                    kept: order.entries.filter { $0.kind == plan.kind }.map(\.rowid))
            else { return nil }
            now.append(state)
        }
        let partOf = Dictionary(uniqueKeysWithValues: plans.enumerated().map { ($1.kind, $0) })
        // The kept entries that did not change, with their scores now, in their order.
        var rows: [Row] = []
        for (entry, rowClass) in zip(order.entries, frontier.entryClasses) {
            guard let index = partOf[entry.kind] else { return nil }
            let state = now[index]
            guard !state.changed.contains(entry.rowid) else { continue }
            let value = FTS5RankCollector.value(
                frequency: rowClass.frequency, size: rowClass.size, rows: state.rowCount,
                tokens: state.tokenCount)
            rows.append(
                Row(
                    kind: entry.kind, rowid: entry.rowid, tier: rowClass.tier,
                    score: 0.0 + state.idf * value,
                    before: (entry.tier.rawValue, entry.score)))
        }
        for (index, plan) in plans.enumerated() {
            for row in now[index].matching {
                rows.append(
                    Row(
                        kind: plan.kind, rowid: row.rowid, tier: row.tier,
                        score: 0.0 + now[index].idf * row.value, before: nil))
            }
        }
        guard let ordered = try ordered(rows) else { return nil }
        func finish(_ entries: [RankedOrder.Entry]) -> RankedOrder? {
            let updated = RankedOrder(total: now.reduce(0) { $0 + $1.total }, entries: entries)
            return updated.covers(upTo: end) ? updated : nil
        }
        // Cut before the first row a match outside the order might precede now: per part, the
        // best (tier, score) its left-out matches can have now, and its tied rows' score.
        let limits = zip(frontier.parts, now).map { part, state in
            (
                bestLeftOut: part.bestLeftOut.map { best -> (tier: Int, score: Double) in
                    // A bm25 term grows more slowly than the average size (see RankingFrontier).
                    let growth = max(
                        1.0,
                        (Double(state.tokenCount) / Double(state.rowCount))
                            / (Double(part.tokenCount) / Double(part.rowCount)))
                    return (best.tier, (0.0 + state.idf * (best.value * growth)) * (1 + 1e-9))
                },
                continuation: part.continuation.map { tied -> (tier: Int, score: Double) in
                    let value = FTS5RankCollector.value(
                        frequency: tied.frequency, size: tied.size, rows: state.rowCount,
                        tokens: state.tokenCount)
                    return (tied.tier, 0.0 + state.idf * value)
                }
            )
        }
        var keys = SortKeys(database: database)
        var kept: [RankedOrder.Entry] = []
        let last = order.entries.last
        for row in ordered.prefix(order.entries.count) {
            for limit in limits {
                if let best = limit.bestLeftOut, (row.tier, row.score) <= best {
                    return finish(kept)
                }
                if let tied = limit.continuation, let last {
                    if (row.tier, row.score) < tied { return finish(kept) }
                    if (row.tier, row.score) == tied {
                        // Those rows follow the last entry as it was ranked.
                        guard let key = keys.key(of: row.kind, rowid: row.rowid),
                            row.kind == last.kind && row.rowid == last.rowid
                                || SortKeys.precedes(
                                    (key, row.kind, row.rowid),
                                    (frontier.lastSortKey, last.kind, last.rowid))
                        else { return finish(kept) }
                    }
                }
            }
            kept.append(
                RankedOrder.Entry(
                    kind: row.kind, rowid: row.rowid, score: row.score,
                    tier: RankTier(rawValue: row.tier)))
        }
        return finish(kept)
    }

    /// `plan`'s statistics and changed rows now; nil when the log or the index cannot say
    /// exactly. `kept` are the plan's rows in the kept order, which matched when ranked.
    private func state(
        of plan: MatchPlan, part: RankingFrontier.Part, since sequence: Int64, kept: [Int64]
    ) throws -> PlanNow? {
        guard
            let changes = try SearchChanges.changes(
                of: plan.kind, after: sequence, in: database, limit: Self.changeLimit),
            let averages = FTS5Averages(
                of: plan.index, columnCount: plan.weights.count, in: database)
        else { return nil }
        guard !changes.isEmpty else {
            // Nothing logged: the index must be as it was.
            guard averages.rowCount == part.rowCount, averages.tokenCount == part.tokenCount
            else { return nil }
            return PlanNow(
                rowCount: part.rowCount, tokenCount: part.tokenCount, total: part.total,
                idf: FTS5RankCollector.idf(rows: part.rowCount, hits: Int64(part.total)),
                changed: [], matching: [])
        }
        guard let terms = PhraseTerms(plan: plan, tokenizer: tokenizer) else { return nil }
        let keptRows = Set(kept)
        var matchesLost = 0
        var existedBefore: Int64 = 0
        for (id, before) in changes {
            switch before {
            case .absent:
                // A row kept in the order existed when it was ranked.
                guard !keptRows.contains(id) else { return nil }
            case .fields(let fields):
                existedBefore += 1
                let matched = terms.matches(fields)
                // The log must agree with the order about the rows it holds.
                guard matched || !keptRows.contains(id) else { return nil }
                if matched { matchesLost += 1 }
            }
        }
        // The changed rows as they are now, ranked by the same collector a search fills.
        let collector = FTS5RankCollector(plan: plan, capacity: changes.count, on: database)
        defer { collector.closeSizeReader() }
        collector.start(
            rowCount: averages.rowCount, tokenCount: averages.tokenCount, matchPhraseRows: [])
        var existsNow: Int64 = 0
        var isComplete = true
        let fields = plan.kind.searchableFields.joined(separator: ", ")
        try database.cachedStatement(
            sql: """
                SELECT id, \(fields) FROM \(plan.kind.tableName)
                WHERE id IN (SELECT value FROM json_each(?1))
                """
        ).forEachRow(["[" + changes.keys.map(String.init).joined(separator: ",") + "]"]) { row in
            existsNow += 1
            let values = (0..<plan.kind.searchableFields.count).map { row.text(at: Int32(1 + $0)) }
            collector.beginRow()
            for (phrase, columns) in terms.hits(in: values).enumerated() {
                for (column, count) in columns.enumerated() {
                    for _ in 0..<count { collector.recordHit(ofPhrase: phrase, inColumn: column) }
                }
            }
            // A row whose size cannot be read is not one to rank here.
            if collector.endRow(
                rowid: row.int64(at: 0), readSize: { _ in SQLiteResultCode.corrupt.rawValue })
                != SQLiteResultCode.ok.rawValue
            {
                isComplete = false
            }
        }
        // Every change to the row count is one the log tells of.
        guard isComplete, averages.rowCount == part.rowCount + existsNow - existedBefore else {
            return nil
        }
        let matching = try collector.finish()
        let total = part.total - matchesLost + collector.total
        guard total >= 0, matching.count == collector.total else { return nil }
        return PlanNow(
            rowCount: averages.rowCount, tokenCount: averages.tokenCount, total: total,
            idf: FTS5RankCollector.idf(rows: averages.rowCount, hits: Int64(total)),
            changed: Set(changes.keys), matching: matching)
    }

    /// `rows` in rank order: by (tier, score), then sort key, kind and id. Kept rows of one
    /// (tier, score) keep their kept order (the order of their sort keys); nil when rows that
    /// ranked apart now tie exactly, or a sort key cannot be read.
    private func ordered(_ rows: [Row]) throws -> [Row]? {
        // The kept rows come first and in order, so a stable sort keeps them so.
        let sorted = rows.enumerated().sorted { a, b in
            if (a.element.tier, a.element.score) != (b.element.tier, b.element.score) {
                return (a.element.tier, a.element.score) > (b.element.tier, b.element.score)
            }
            return a.offset < b.offset
        }.map(\.element)
        var result: [Row] = []
        var keys = SortKeys(database: database)
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count,
                (sorted[end].tier, sorted[end].score) == (sorted[start].tier, sorted[start].score)
            {
                end += 1
            }
            let group = sorted[start..<end]
            let keptBefore = group.compactMap(\.before)
            // Kept rows that were apart and now tie would need their sort keys compared.
            guard keptBefore.allSatisfy({ $0 == keptBefore[0] }) else { return nil }
            if group.count > 1 && group.contains(where: { $0.before == nil }) {
                var keyed: [(key: [UInt8], row: Row)] = []
                for row in group {
                    guard let key = keys.key(of: row.kind, rowid: row.rowid) else { return nil }
                    keyed.append((key, row))
                }
                keyed.sort {
                    SortKeys.precedes(
                        ($0.key, $0.row.kind, $0.row.rowid), ($1.key, $1.row.kind, $1.row.rowid))
                }
                result += keyed.map(\.row)
            } else {
                result += group
            }
            start = end
        }
        return result
    }
}

/// The phrases of a plan, each one term as the index's tokenizer makes it, matched against a
/// record's searchable fields as the index tokenized them when it stored them: a phrase hits each
/// word that starts with its term (a prefix phrase) or equals it, in the columns searched. A word
/// and the accent form the tokenizer puts at its position (see ``FoldingTokenizer``) never both
/// hit one phrase, so the hits are the position lists' lengths, as FTS5 counts them.
private struct PhraseTerms {
    let tokenizer: FTS5Tokenizer
    let terms: [(bytes: [UInt8], isPrefix: Bool)]
    let columns: [Int]?

    init?(plan: MatchPlan, tokenizer: FTS5Tokenizer) {
        self.tokenizer = tokenizer
        var terms: [(bytes: [UInt8], isPrefix: Bool)] = []
        for phrase in plan.phrases {
            let tokens = tokenizer.tokens(in: phrase.term)
            guard tokens.count == 1, let token = tokens.first else { return nil }
            terms.append((Array(token.text.utf8), phrase.isPrefix))
        }
        self.terms = terms
        columns = plan.matchedColumns
    }

    /// Each phrase's hits in each column of a record with these field values.
    func hits(in fields: [String?]) -> [[Int]] {
        var hits = Array(repeating: Array(repeating: 0, count: fields.count), count: terms.count)
        for (column, field) in fields.enumerated() {
            guard let field, columns?.contains(column) ?? true else { continue }
            for token in tokenizer.tokens(in: field, asDocument: true) {
                let bytes = Array(token.text.utf8)
                for (phrase, term) in terms.enumerated()
                where term.isPrefix ? bytes.starts(with: term.bytes) : bytes == term.bytes {
                    hits[phrase][column] += 1
                }
            }
        }
        return hits
    }

    /// Whether the plan's one match phrase (its first) hits a record with these field values.
    func matches(_ fields: [String?]) -> Bool {
        hits(in: fields)[0].contains { $0 > 0 }
    }
}
