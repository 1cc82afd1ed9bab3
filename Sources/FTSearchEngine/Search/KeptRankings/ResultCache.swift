package import FTSearchSQLite

/// The rankings of expensive searches, kept in the database so that the next search for the
/// same text, in this process or a later one, skips the ranking.
///
/// A one-letter prefix matches a third of a million people, and ranking that many takes tens
/// of milliseconds however it is done; yet people type the same few short prefixes again and
/// again (every search-as-you-type session starts with one letter). So a search whose ranking
/// took at least ``minimumCost`` keeps its ``RankedOrder`` in `result_cache`, under a key made
/// of its match plans, with the structure records of the indexes it read (see
/// ``IndexStructure``). Any change to the records searched rewrites those, so a kept ranking
/// is only served while the indexes are exactly as they were when it was computed. The table
/// holds the ``capacity`` most recently kept rankings, of at most ``longestKeptRanking``
/// results (usually 20: under half a kilobyte each, at most 10 KiB).
///
/// Keeping a ranking never holds up or fails a search: on a read-only database, inside a
/// transaction, or while another process holds the write lock, it is simply not kept there.
///
/// In front of the table there may be a ``SearchMemory``, which the connections of one
/// process share (a ``SearchIndexPool``'s): a ranking found there costs no query, and one
/// kept there serves the next identical search even on a database that cannot be written (a
/// server started `--read-only` would otherwise rank every short prefix again every time).
package struct ResultCache {
    /// Where one search's ranking is kept: its key, and the indexes' state it was ranked in.
    struct Slot {
        let key: String
        let structure: [UInt8]
    }

    let database: Database
    /// Rankings that took less than this are not kept.
    let minimumCost: Duration
    /// The rankings this process keeps in memory, shared by its connections; nil for none.
    var memory: SearchMemory?

    package init(database: Database, minimumCost: Duration, memory: SearchMemory? = nil) {
        self.database = database
        self.minimumCost = minimumCost
        self.memory = memory
    }

    /// The cost above which a ranking is worth keeping: a few times what serving a kept one
    /// costs (about 0.3 ms for a page of 20 at a million records), or writing it.
    package static let defaultMinimumCost = Duration.milliseconds(1)
    /// How many rankings are kept; storing more drops the oldest.
    static let capacity = 2000
    /// The longest ranking kept, in results (21 bytes each): pages further down are rare.
    static let longestKeptRanking = 500
    /// Part of every key. Change it whenever ftsearch orders results differently (ranking
    /// rules, tokenizers), so that rankings an older ftsearch kept are never served:
    /// `RankingVersionTests` fails when the order of its fixed searches changes at the same
    /// version. 3: the field rule first (see ``RankTier``), and the tier's new layout.
    static let rankingVersion = 3

    /// The slot of the search that `plans` describe, among the rows `restriction` admits and in
    /// its order (its filter and sort in the key, the records' versions in the state), as the
    /// indexes are now.
    func slot(for plans: [MatchPlan], restriction: RankingRestriction? = nil) throws -> Slot {
        var structure: [UInt8] = []
        for index in plans.map(\.index) {
            let record = try IndexStructure.record(ofIndexNamed: index, in: database)
            LittleEndian.append(UInt64(record.count), byteCount: 4, to: &structure)
            structure += record
        }
        var parts = ["ranking \(Self.rankingVersion)"] + plans.map(\.rankingKey)
        if let restriction {
            parts.append(restriction.key)
            structure += restriction.state
        }
        return Slot(key: parts.joined(separator: "\n"), structure: structure)
    }

    /// The ranking kept in `slot`, if it is current and reaches position `end`; else, when
    /// the ranking kept under its key was ranked before writes that the ``SearchChanges`` log
    /// tells of, that ranking brought up to date (see ``RankingMaintenance``, with the word
    /// indexes' `tokenizer`) if it still reaches position `end`.
    func order(
        in slot: Slot, covering end: Int, plans: [MatchPlan], tokenizer: FTS5Tokenizer
    ) throws -> RankedOrder? {
        if let order = memory?.order(in: slot), order.covers(upTo: end) { return order }
        // One read of the kept row: its order, and whether it is current or needs its frontier.
        // A database from before the cache has no table: nothing is kept there.
        guard
            let statement = try? database.cachedStatement(
                sql: "SELECT structure, total, entries, frontier FROM result_cache WHERE key = ?1"),
            let kept = try? statement.firstRow(
                [slot.key],
                { row -> (order: RankedOrder, frontier: RankingFrontier?, isCurrent: Bool)? in
                    guard let order = Self.decode(total: row.int(at: 1), entries: row.bytes(at: 2))
                    else { return nil }
                    let frontier =
                        row.isNull(at: 3) ? nil : RankingFrontier(encoded: row.bytes(at: 3))
                    return (order, frontier, row.bytes(at: 0) == slot.structure)
                }),
            let kept
        else { return nil }
        if kept.isCurrent {
            guard kept.order.covers(upTo: end) else { return nil }
            memory?.keep(kept.order, in: slot)
            return kept.order
        }
        guard let frontier = kept.frontier,
            let updated = try RankingMaintenance(
                database: database, plans: plans, tokenizer: tokenizer
            ).update(kept.order, frontier: frontier, covering: end)
        else { return nil }
        memory?.keep(updated, in: slot)
        return updated
    }

    /// Whether ``keep(_:frontier:in:cost:)`` keeps `order`: when ranking it took at least
    /// ``minimumCost`` and it begins with the best match.
    func keeps(_ order: RankedOrder, cost: Duration) -> Bool {
        cost >= minimumCost && order.start == 0 && order.entries.count <= Self.longestKeptRanking
    }

    /// Keeps `order` in `slot`, with its `frontier` if it has one, if it ``keeps(_:cost:)``.
    func keep(
        _ order: RankedOrder, frontier: RankingFrontier? = nil, in slot: Slot, cost: Duration
    ) {
        guard keeps(order, cost: cost) else { return }
        memory?.keep(order, in: slot)
        database.writeWithoutWaiting {
            try database.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO result_cache(key, structure, total, entries, frontier)
                    VALUES (?1, ?2, ?3, ?4, ?5)
                    """
            ).execute([
                slot.key, slot.structure, order.total, Self.encode(order.entries),
                frontier?.encoded,
            ])
            try database.cachedStatement(
                sql: "DELETE FROM result_cache WHERE id <= last_insert_rowid() - ?1"
            ).execute([Self.capacity])
        }
    }

    // MARK: Encoding

    /// Drops every kept ranking (after a change that rewrites every index's structure record,
    /// such as merging the segments).
    package static func forgetAll(in database: Database) throws {
        try database.execute(sql: "DELETE FROM result_cache")
    }

    /// The bytes of one entry: kind, rowid, score (IEEE 754 bits), tier.
    private static let entrySize = 1 + 8 + 8 + 4

    private static func encode(_ entries: [RankedOrder.Entry]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * entrySize)
        for entry in entries {
            bytes.append(UInt8(Kind.allCases.firstIndex(of: entry.kind)!))
            LittleEndian.append(UInt64(bitPattern: entry.rowid), byteCount: 8, to: &bytes)
            LittleEndian.append(entry.score.bitPattern, byteCount: 8, to: &bytes)
            LittleEndian.append(UInt64(entry.tier.rawValue), byteCount: 4, to: &bytes)
        }
        return bytes
    }

    /// The order from its stored form; nil when the bytes are not a list of entries.
    private static func decode(total: Int, entries bytes: [UInt8]) -> RankedOrder? {
        guard bytes.count % entrySize == 0 else { return nil }
        var entries: [RankedOrder.Entry] = []
        entries.reserveCapacity(bytes.count / entrySize)
        for start in stride(from: 0, to: bytes.count, by: entrySize) {
            guard Int(bytes[start]) < Kind.allCases.count else { return nil }
            entries.append(
                RankedOrder.Entry(
                    kind: Kind.allCases[Int(bytes[start])],
                    rowid: Int64(
                        bitPattern: LittleEndian.value(in: bytes, at: start + 1, byteCount: 8)),
                    score: Double(
                        bitPattern: LittleEndian.value(in: bytes, at: start + 9, byteCount: 8)),
                    tier: RankTier(
                        rawValue: Int(LittleEndian.value(in: bytes, at: start + 17, byteCount: 4))
                    )))
        }
        return RankedOrder(total: total, entries: entries)
    }
}
