import FTSearchSQLite

/// The doclist reader as a source of matches: the first the pipeline tries.
extension DoclistRanking: MatchSource {
    func reading(on database: Database) -> DoclistRanking {
        var source = DoclistRanking(database: database, plan: plan)
        source.streamsAnySegments = streamsAnySegments
        source.formatVersion = formatVersion
        return source
    }

    func collect(_ part: MatchPart, into collector: FTS5RankCollector) throws -> MatchCollection? {
        switch part {
        case .all: try collect(into: collector)
        case .rows(let rows): try collect(into: collector, rows: rows)
        case .sharedSegments(let claims): try collect(into: collector, segments: .shared(claims))
        }
    }

    /// One token whose phrases stream (see ``DoclistRanking/stream(into:segments:rows:keys:)``),
    /// or of one match phrase: the segments shared one at a time where their rowids are
    /// disjoint (a bulk import's), else halves of the rowids (after single writes, whose small
    /// segments hold rows from all over). Several match phrases: halves of the segments,
    /// decoded, then scored (their IDFs need every row).
    func splits() throws -> [MatchSplit] {
        if plan.tokenCount == 1, try plan.matchPhraseCount == 1 || streams() {
            return try splitsByRowid() ? [.rowHalves] : [.sharedSegments, .rowHalves]
        }
        if plan.matchPhraseCount > 1, try !splitsByRowid() {
            return [.decodedHalves]
        }
        return []
    }

    func collectInDecodedHalves(
        helper: RankingHelper, collector: @escaping (Database) -> FTS5RankCollector
    ) throws -> FTS5RankCollector? {
        try collectInHalves(helper: helper, collector: collector)
    }
}
