import FTSearchSQLite

/// A plan's matches through FTS5's own cursor: `MATCH` with the `ftsearch_rank` auxiliary
/// function (``FTS5RankFunction``) handing each row's hits to the collector. It serves every
/// plan, on every index FTS5 reads: the fallback of ``DoclistRanking``.
struct CursorMatches: MatchSource {
    let database: Database
    let plan: MatchPlan

    func reading(on database: Database) -> CursorMatches {
        CursorMatches(database: database, plan: plan)
    }

    func collect(_ part: MatchPart, into collector: FTS5RankCollector) throws -> MatchCollection? {
        let rows: ClosedRange<Int64>
        switch part {
        case .all: rows = Int64.min...Int64.max
        case .rows(let range): rows = range
        case .sharedSegments: return nil
        }
        // The structure record and the matches of one version of the index.
        return try database.readingOneVersion {
            let structure = try structureRecord()
            try collect(rows: rows, into: collector)
            return MatchCollection(collector: collector, structure: structure, rowids: [rows])
        }
    }

    /// One token is ranked in halves of the rowids; more tokens are not worth it.
    func splits() throws -> [MatchSplit] {
        plan.tokenCount == 1 ? [.rowHalves] : []
    }

    /// Runs the ranking query of the plan over its matches in `rows`, into `collector`.
    func collect(rows: ClosedRange<Int64>, into collector: FTS5RankCollector) throws {
        let everyRow = rows == Int64.min...Int64.max
        let statement = try database.cachedStatement(
            sql: "SELECT 1 FROM \(plan.index) WHERE \(plan.index) MATCH ?1 "
                + (everyRow ? "" : "AND rowid BETWEEN ?3 AND ?4 ")
                + "AND \(FTS5RankFunction.name)(\(plan.index), ?2)")
        try statement.bind(plan.rankQuery, at: 1)
        try statement.bind(collector, at: 2)
        if !everyRow {
            try statement.bind(rows.lowerBound, at: 3)
            try statement.bind(rows.upperBound, at: 4)
        }
        defer { statement.reset() }
        defer { collector.closeSizeReader() }
        while try statement.step() {}
    }

    /// The index's structure record (`%_data` row 10), which changes with every write to it.
    private func structureRecord() throws -> [UInt8] {
        try database.cachedStatement(sql: "SELECT block FROM \"\(plan.index)_data\" WHERE id = 10")
            .firstRow { $0.bytes(at: 0) } ?? []
    }
}
