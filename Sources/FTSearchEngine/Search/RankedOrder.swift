import FTSearchSQLite

/// The ranked matches of a search, best first: how many there are, and those from position
/// ``start`` in order, as many as the pages asked for so far need. ``RankedPage`` computes it,
/// ``ResultCache`` keeps it (from position 0) for searches that were expensive to rank.
struct RankedOrder: Equatable, Sendable {
    /// One ranked match: the record, and the tier and score it ranks by.
    struct Entry: Equatable, Sendable {
        var kind: Kind
        var rowid: Int64
        var score: Double
        var tier: RankTier
    }

    /// The number of all matches.
    var total: Int
    /// The position of the first of ``entries``: 0, or for a page too deep to keep, its offset.
    var start = 0
    /// The matches from position ``start``, best first.
    var entries: [Entry]

    /// Whether ``entries`` holds every match ranked before position `end` (or all there are).
    func covers(upTo end: Int) -> Bool {
        start == 0 && entries.count >= min(end, total)
    }

    /// The hits at positions `offset ..< offset + limit` (`offset` at least ``start``), with
    /// their records read from `database`, in the caller's read transaction (the search's, see
    /// ``QueryEngine/search(_:)``). A record deleted since it was ranked is left out.
    func hits(offset: Int, limit: Int, from database: Database) throws -> [SearchHit] {
        precondition(offset >= start, "the order begins after the page")
        var records = RecordRows.Readers(database: database)
        return try entries.dropFirst(offset - start).prefix(limit).compactMap {
            try $0.hit(from: &records)
        }
    }
}

extension RankedOrder.Entry {
    /// The hit of this match, its record read whole by `records`; nil when the record is gone.
    func hit(from records: inout RecordRows.Readers) throws -> SearchHit? {
        try records.record(of: kind, id: rowid).map {
            SearchHit(record: $0, score: score, tier: tier)
        }
    }
}
