import FTSearchSQLite

/// The searches made so far: recorded by every query, listed newest first, deletable.
///
/// Searches are one entry when their normalized keys are equal (case, diacritics and white
/// space folded like the index); each search adds one to the entry's count, and the entry takes
/// the latest spelling, kinds and result count.
///
/// ```swift
/// try index.history.record("Zoë", kinds: .all, resultCount: 3)
/// try index.history.entries(limit: 10)   // newest first
/// ```
///
/// The entries live in a file of their own beside the database (see `HistoryFile`), so that
/// recording a search never waits for an import or any other change to the records.
///
/// On a database this process can only read, the history can be listed but not changed:
/// changes throw ``ReadOnlyDatabaseError``.
public struct SearchHistory {
    /// The history's own database.
    let database: Database
    /// The records' database, which errors name.
    let databasePath: String
    let tokenizer: FTS5Tokenizer
    let clock: @Sendable () -> Timestamp
    let readOnlyReason: ReadOnlyReason?

    /// Records a search of `text`. Text that is empty or only white space is not recorded.
    ///
    /// Safe under concurrent use by many processes: every call adds exactly one to the count.
    /// It waits only for other history writes (each well under a millisecond), never for a
    /// change to the records.
    /// The entry reaches the database file at the next checkpoint, not when the process ends
    /// (see `Database.Durability.byNextCheckpoint`): a search costs no disk flush.
    ///
    /// - Throws: ``ReadOnlyDatabaseError`` when this process cannot write the database.
    public func record(_ text: String, kinds: Set<Kind>, resultCount: Int) throws {
        let key = HistoryKey.normalize(text, tokenizer: tokenizer)
        guard !key.isEmpty else { return }
        try requireWriteAccess(for: "record the search in the history")
        let now = clock().description
        try database.inTransaction(.immediate, durability: .byNextCheckpoint) {
            try database.cachedStatement(
                sql: """
                    INSERT INTO history(key, text, kind, result_count, use_count, first_used, last_used)
                    VALUES (?1, ?2, ?3, ?4, 1, ?5, ?5)
                    ON CONFLICT(key) DO UPDATE SET
                        text = excluded.text, kind = excluded.kind, result_count = excluded.result_count,
                        use_count = use_count + 1, last_used = excluded.last_used
                    """
            ).execute([key, text, kinds.name, resultCount, now])
        }
    }

    /// The entries, most recently used first.
    ///
    /// - Parameter limit: The most entries to return; `nil` for all.
    public func entries(limit: Int? = nil) throws -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        try database.cachedStatement(
            sql: """
                SELECT \(Self.entryColumns) FROM history ORDER BY last_used DESC, id DESC LIMIT ?1
                """
        ).forEachRow([limit ?? -1]) { entries.append(Self.entry(from: $0)) }
        return entries
    }

    /// The number of entries.
    public func count() throws -> Int {
        try database.fetchInt(sql: "SELECT count(*) FROM history") ?? 0
    }

    /// Deletes the entries with these ids, all or none.
    ///
    /// - Throws: ``HistoryEntryNotFound`` naming the first id that does not exist; then nothing
    ///   is deleted. ``ReadOnlyDatabaseError`` when this process cannot write the database.
    public func delete(ids: [Int64]) throws {
        try requireWriteAccess(for: "delete history entries")
        try database.inTransaction(.immediate) {
            let statement = try database.cachedStatement(sql: "DELETE FROM history WHERE id = ?1")
            for id in ids {
                try statement.execute([id])
                if database.changesCount == 0 {
                    throw HistoryEntryNotFound(reference: "with id \(id)")
                }
            }
        }
    }

    /// Deletes the entry that `text` normalizes to.
    ///
    /// - Throws: ``HistoryEntryNotFound`` when there is none; ``ReadOnlyDatabaseError`` when this
    ///   process cannot write the database.
    public func delete(matching text: String) throws {
        let key = HistoryKey.normalize(text, tokenizer: tokenizer)
        try requireWriteAccess(for: "delete history entries")
        try database.inTransaction(.immediate) {
            try database.cachedStatement(sql: "DELETE FROM history WHERE key = ?1").execute([key])
            if database.changesCount == 0 {
                throw HistoryEntryNotFound(reference: "for \"\(text)\"")
            }
        }
    }

    /// Deletes every entry, or those last used before `date`.
    ///
    /// - Returns: How many entries were deleted.
    /// - Throws: ``ReadOnlyDatabaseError`` when this process cannot write the database.
    @discardableResult
    public func clear(before date: Timestamp? = nil) throws -> Int {
        try requireWriteAccess(for: "clear the history")
        return try database.inTransaction(.immediate) {
            if let date {
                try database.execute(
                    sql: "DELETE FROM history WHERE last_used < ?1", arguments: [date.description])
            } else {
                try database.execute(sql: "DELETE FROM history WHERE 1")
            }
            return database.changesCount
        }
    }

    private func requireWriteAccess(for change: String) throws(ReadOnlyDatabaseError) {
        if let readOnlyReason {
            throw ReadOnlyDatabaseError(path: databasePath, reason: readOnlyReason, change: change)
        }
    }

    static let entryColumns = "id, text, key, kind, result_count, use_count, first_used, last_used"

    static func entry(from row: Statement) -> HistoryEntry {
        HistoryEntry(
            id: row.int64(at: 0), text: row.text(at: 1) ?? "", key: row.text(at: 2) ?? "",
            kinds: Set<Kind>(name: row.text(at: 3) ?? "") ?? .all,
            resultCount: row.int(at: 4), useCount: row.int(at: 5),
            firstUsed: Timestamp(iso8601: row.text(at: 6) ?? "")
                ?? Timestamp(millisecondsSinceEpoch: 0),
            lastUsed: Timestamp(iso8601: row.text(at: 7) ?? "")
                ?? Timestamp(millisecondsSinceEpoch: 0))
    }
}
