import FTSearchSQLite

/// Where a plan's matches come from: a source hands every match of a ``MatchPlan`` (in the
/// part of the index it is asked for) to an ``FTS5RankCollector``, which tiers, scores and keeps
/// the best. It is the *matching* stage of the pipeline; scoring is the collector's.
///
/// Two sources earn their place (see docs/architecture.md): ``DoclistRanking``, which decodes
/// FTS5's segments itself and serves plans on an index in the format it knows, and
/// ``CursorMatches``, FTS5's own cursor with the `ftsearch_rank` auxiliary function, which
/// serves every plan: the fallback. Two connections share a large plan through one wrapper over
/// either source, ``ParallelMatches``; ``MatchSources`` tries the sources in order.
protocol MatchSource: SendableMetatype {
    /// The plan whose matches it reads.
    var plan: MatchPlan { get }

    /// This source reading on another connection (the ranking helper's).
    func reading(on database: Database) -> Self

    /// Hands the plan's matches in `part` to `collector`; nil when this source does not serve
    /// the plan, or not this part of it.
    func collect(_ part: MatchPart, into collector: FTS5RankCollector) throws -> MatchCollection?

    /// The ways two connections may share the plan, best first; empty when one connection
    /// ranks it alone.
    func splits() throws -> [MatchSplit]

    /// For ``MatchSplit/decodedHalves``: both connections decode half of the index each, then
    /// score their rows with what both decoded (IDFs of several phrases need every row). The
    /// merged collector; nil when the halves cannot be merged (the caller ranks otherwise).
    func collectInDecodedHalves(
        helper: RankingHelper, collector: @escaping (Database) -> FTS5RankCollector
    ) throws -> FTS5RankCollector?
}

extension MatchSource {
    func collectInDecodedHalves(
        helper: RankingHelper, collector: @escaping (Database) -> FTS5RankCollector
    ) throws -> FTS5RankCollector? { nil }
}

/// Which of a plan's matches a source collects.
enum MatchPart {
    /// Every match.
    case all
    /// The matches of these rowids: one connection's half of the rows.
    case rows(ClosedRange<Int64>)
    /// The matches in the segments `claims` gives this connection, one at a time: connections
    /// ranking one plan at once each take the next segment when done with one.
    case sharedSegments(SegmentClaims)
}

/// A way two connections share the ranking of one plan (see ``ParallelMatches``).
enum MatchSplit {
    /// Each takes the index's segments one at a time (``MatchPart/sharedSegments(_:)``); merged
    /// when no rowid is in both connections' segments, as after a bulk import.
    case sharedSegments
    /// Each collects half of the rowids (``MatchPart/rows(_:)``), whatever the segments.
    case rowHalves
    /// Each decodes half of the segments (``MatchSource/collectInDecodedHalves(helper:collector:)``).
    case decodedHalves
}

/// What a source collected: the collector it filled, the structure record of the index it read
/// (the version of the index: two collections merge only when they read the same), and the
/// lowest and highest rowid of every entry it read in each segment, or group of segments, or
/// part of the rows.
struct MatchCollection {
    let collector: FTS5RankCollector
    let structure: [UInt8]
    let rowids: [ClosedRange<Int64>]

    /// Whether no rowid can have entries in both collections: then each ranked its rows
    /// exactly as reading all of them would, and the two can be merged.
    func isDisjoint(from other: MatchCollection) -> Bool {
        rowids.allSatisfy { mine in
            other.rowids.allSatisfy { DoclistRanking.areDisjoint(mine, $0) }
        }
    }

    /// One collector of the `parts`; nil when one could not be collected, or two read other
    /// versions of the index or may hold a rowid in common.
    static func merged(_ parts: [MatchCollection?]) -> FTS5RankCollector? {
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
}
