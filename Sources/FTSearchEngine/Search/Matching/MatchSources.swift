import FTSearchSQLite

/// The sources of a plan's matches, in the order they are tried: FTS5's doclists decoded by
/// ftsearch (``DoclistRanking``, where it knows the index's format), then FTS5's cursor
/// (``CursorMatches``), which serves every plan. On a table whose rowids span at least
/// ``parallelMinimumSpan``, each is ranked by two connections at once (``ParallelMatches``).
struct MatchSources {
    let database: Database
    /// The second connection, opened on demand by the first plan wide enough to use it.
    var helper: () -> RankingHelper? = { nil }
    /// Tables whose rowids span fewer than this are ranked on one connection.
    var parallelMinimumSpan: Int64 = 200_000
    /// Whether the doclist reader is tried first (`ftsearch-bench` also times the cursor alone).
    var readsDoclists = true
    /// The `%_config` version of FTS5's format the doclist reader decodes; an index of another
    /// version is ranked by the cursor.
    var doclistFormatVersion = DoclistRanking.knownFormatVersion

    /// The best `capacity` matches of `plan`, and the count of all.
    func collect(_ plan: MatchPlan, capacity: Int) throws -> FTS5RankCollector {
        let span = try rowidSpan(of: plan.kind)
        let helper =
            span.map(isWide) == true && Ablation.uses(.parallelMatching) ? helper() : nil
        if readsDoclists {
            var doclists = DoclistRanking(database: database, plan: plan)
            doclists.formatVersion = doclistFormatVersion
            if let collector = try ParallelMatches(
                source: doclists, database: database, helper: helper, span: span,
                capacity: capacity
            ).collect() {
                return collector
            }
        }
        let cursor = CursorMatches(database: database, plan: plan)
        guard
            let collector = try ParallelMatches(
                source: cursor, database: database, helper: helper, span: span,
                capacity: capacity
            ).collect()
        else { preconditionFailure("FTS5's cursor serves every plan") }
        return collector
    }

    /// Whether rowids `span` at least ``parallelMinimumSpan``.
    private func isWide(_ span: ClosedRange<Int64>) -> Bool {
        let (width, overflow) = span.upperBound.subtractingReportingOverflow(span.lowerBound)
        return overflow || width >= parallelMinimumSpan
    }

    /// The lowest and highest id of `kind`, nil when it has no records.
    private func rowidSpan(of kind: Kind) throws -> ClosedRange<Int64>? {
        try database
            .cachedStatement(
                sql: """
                    SELECT (SELECT min(id) FROM \(kind.tableName)), \
                    (SELECT max(id) FROM \(kind.tableName))
                    """
            )
            .firstRow { row -> ClosedRange<Int64>? in
                row.isNull(at: 0) ? nil : row.int64(at: 0)...row.int64(at: 1)
            } ?? nil
    }
}
