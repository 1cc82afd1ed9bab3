import FTSearchSQLite

/// Two connections ranking one plan at once, the caller's and the ranking helper's: the
/// parallelism of the pipeline, one wrapper over any ``MatchSource``. It tries the ways the
/// source can be shared (``MatchSource/splits()``), best first, and keeps the first whose parts
/// merge (they read one version of the index and no row twice); when none does, or there is
/// no helper, the source ranks the plan alone on the caller's connection.
struct ParallelMatches<Source: MatchSource> {
    let source: Source
    /// The caller's connection, the one `source` reads on.
    let database: Database
    /// The second connection's helper; nil when the plan's table is too narrow to be worth it.
    let helper: RankingHelper?
    /// The lowest and highest rowid of the plan's table, for halves of the rows.
    let span: ClosedRange<Int64>?
    /// How many of the best matches each collector keeps.
    let capacity: Int

    /// The plan's matches, collected; nil when the source does not serve the plan.
    func collect() throws -> FTS5RankCollector? {
        if let helper, let span {
            for split in try source.splits() where Self.uses(split) {
                if let collector = try collect(split, helper: helper, span: span) {
                    return collector
                }
            }
        }
        return try source.collect(.all, into: collector(on: database))?.collector
    }

    /// Whether `split` is in use (`ftsearch-bench ablation` takes each away in turn).
    private static func uses(_ split: MatchSplit) -> Bool {
        switch split {
        case .sharedSegments: Ablation.uses(.sharedSegments)
        case .rowHalves: Ablation.uses(.rowHalves)
        case .decodedHalves: Ablation.uses(.decodedHalves)
        }
    }

    /// A collector of the plan's best matches reading row sizes on `database`.
    private func collector(on database: Database) -> FTS5RankCollector {
        FTS5RankCollector(plan: source.plan, capacity: capacity, on: database)
    }

    /// The plan collected by both connections, shared as `split` says; nil when the parts do
    /// not merge (or the helper failed: that only costs the parallelism).
    private func collect(_ split: MatchSplit, helper: RankingHelper, span: ClosedRange<Int64>)
        throws -> FTS5RankCollector?
    {
        // Only the source's plan and options reach the helper's thread: it reads there on the
        // helper's connection, never on the caller's.
        let handed = UncheckedSendable(source)
        let capacity = capacity
        @Sendable func part(_ part: MatchPart, on database: Database) throws -> MatchCollection? {
            let source = handed.value.reading(on: database)
            return try source.collect(
                part, into: FTS5RankCollector(plan: source.plan, capacity: capacity, on: database))
        }
        switch split {
        case .sharedSegments:
            let claims = SegmentClaims()
            let parts = try helper.sharing(database) { database in
                try part(.sharedSegments(claims), on: database)
            }
            return parts.flatMap(MatchCollection.merged)
        case .rowHalves:
            let middle = span.lowerBound / 2 + span.upperBound / 2
            let (lower, upper) = try helper.inHalves(database) {
                try part(.rows(Int64.min...middle), on: database)
            } theirs: { database in
                try part(.rows((middle + 1)...Int64.max), on: database)
            }
            // Each half ranked its own rows, from every segment: they merge when both read the
            // same version of the index.
            guard let lower, let upper = upper ?? nil, lower.structure == upper.structure
            else { return nil }
            lower.collector.absorb(upper.collector)
            return lower.collector
        case .decodedHalves:
            // A closure of the plan alone: the helper's thread may drop it last, and one that
            // held this wrapper would hold the helper, whose deinit would then wait for its
            // own thread.
            let plan = source.plan
            return try source.collectInDecodedHalves(helper: helper) { database in
                FTS5RankCollector(plan: plan, capacity: capacity, on: database)
            }
        }
    }
}
