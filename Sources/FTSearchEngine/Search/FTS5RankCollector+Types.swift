import FTSearchSQLite

extension FTS5RankCollector {
    /// For a plan of one token and one match phrase, the tier of each ``Signals`` value the
    /// signal phrases that hit a row can give: the match phrase's own signals and typos with
    /// those, and the plan's top field level (`topFieldLevel`), the best a row can have before
    /// the columns it matched in are known.
    static func onePhraseTiers(
        matchSignals: Signals, typos: Int, topFieldLevel: Int
    ) -> UnsafeMutableBufferPointer<Int> {
        buffer(
            (0..<8).map { raw in
                let signals = Signals(rawValue: raw).union(matchSignals)
                let isWhole = signals.contains(.whole)
                return RankTier(
                    fieldLevels: topFieldLevel, wholeTokenMatches: isWhole ? 1 : 0, typos: typos,
                    infixMatches: !isWhole && !signals.contains(.startsWord) ? 1 : 0,
                    accentMatches: signals.contains(.accentExact) ? 1 : 0
                ).rawValue
            })
    }

    /// A buffer of its own holding `values`, for the per-row loops (no exclusivity checks, no
    /// reference counting).
    static func buffer<T>(_ values: [T]) -> UnsafeMutableBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: values.count)
        _ = buffer.initialize(from: values)
        return buffer
    }

    /// A row that may be among the best.
    struct Candidate {
        var rowid: Int64
        /// The bm25 score (`-bm25()`), or for one match phrase the score without its IDF
        /// factor.
        var value: Double
        /// For one match phrase, the row's weighted frequency of it (else 0), and the row's
        /// size: what the value is computed from, kept for ``RankingFrontier``.
        var frequency: Double
        var size: Int32
        /// The ``RankTier`` raw value.
        var tier: Int

        /// Whether it ranks below `key`, with a margin that keeps the rows that could tie with
        /// it once the IDF is applied.
        @inline(__always)
        func ranksBelow(_ key: Key) -> Bool {
            (tier, value) < (key.tier, key.value * (1 - 1e-9))
        }
    }

    /// What candidates are ranked by, best last.
    struct Key: Comparable {
        var tier: Int
        var value: Double

        init(_ candidate: Candidate) { (tier, value) = (candidate.tier, candidate.value) }

        static func < (a: Key, b: Key) -> Bool { (a.tier, a.value) < (b.tier, b.value) }
    }

    /// A row that can be among the best, with its final score.
    struct Ranked {
        /// The plan's kind: the table `rowid` is of.
        var kind: Kind
        var rowid: Int64
        var tier: Int
        var score: Double
        /// What the score is computed from (see ``Candidate``).
        var value: Double
        var frequency: Double
        var size: Int32
    }

    /// What a row's hits of a phrase say about how its token matched (see ``MatchPlan/Phrase``).
    struct Signals: OptionSet {
        let rawValue: Int

        static let whole = Signals(rawValue: 1)
        static let startsWord = Signals(rawValue: 2)
        static let accentExact = Signals(rawValue: 4)
    }

    /// What hits of `phrase` say.
    static func signals(of phrase: MatchPlan.Phrase) -> Signals {
        var signals: Signals = []
        if phrase.isWhole { signals.insert(.whole) }
        if phrase.startsWord { signals.insert(.startsWord) }
        if phrase.isAccentExact { signals.insert(.accentExact) }
        return signals
    }

    /// The key of the candidate `position` places from the best (0 is the best), as if they
    /// were sorted best first, which they are partly left as (see
    /// ``Swift/UnsafeMutableBufferPointer/select(_:from:by:)``).
    static func select(_ position: Int, in candidates: UnsafeMutableBufferPointer<Candidate>)
        -> Key
    {
        candidates.select(position) { Key($0) > Key($1) }
        return Key(candidates[position])
    }
}

extension FTS5RankCollector {
    /// A collector of `plan`'s best `capacity` matches, reading row sizes on `database` (from
    /// the index's row-size blocks, else from FTS5's `%_docsize`).
    convenience init(plan: MatchPlan, capacity: Int, on database: Database) {
        self.init(
            plan: plan, capacity: capacity, database: database,
            sizeTable: "\(plan.index)_docsize",
            rowSizes: FullTextIndex.all(of: plan.kind).first {
                $0.name == plan.index && Ablation.uses(.rowSizes)
            }.map { RowSizes(of: $0, kind: plan.kind) })
    }
}
