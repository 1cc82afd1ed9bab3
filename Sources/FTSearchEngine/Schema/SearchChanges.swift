package import FTSearchSQLite

/// The log of changes to the searchable fields, from which a kept ranking is brought up to
/// date (see ``RankingMaintenance``) instead of ranked again after a write.
///
/// Triggers of their own, beside the index triggers (see ``IndexSync``), add a row to `search_changes`
/// for every record that a single-record write inserts, updates or deletes: its kind, its id,
/// and its searchable fields as they were before, or `existed = 0` for a record that did not
/// exist. A bulk import, which drops the triggers, adds one row without an id instead: any
/// record of that kind may have changed. Each row the triggers add drops the rows more than
/// ``capacity`` before it, so the log stays a few hundred kilobytes however much is written;
/// a ranking kept before the oldest row left is ranked again.
package enum SearchChanges {
    /// How many of the latest changes the log keeps.
    static let capacity = 4096

    /// The number of the latest change written, 0 before any.
    static func latestSequence(in database: Database) throws -> Int64 {
        try database.cachedStatement(
            sql: "SELECT seq FROM sqlite_sequence WHERE name = 'search_changes'"
        ).firstRow { $0.int64(at: 0) } ?? 0
    }

    /// A changed record as it was before its first change.
    enum Before: Equatable {
        /// It did not exist.
        case absent
        /// Its searchable fields, in the order of ``Kind/searchableFields``.
        case fields([String?])
    }

    /// The records of `kind` changed after change `sequence`, each as it was before its first
    /// change since; nil when the log cannot tell: a bulk write of the kind since, changes no
    /// longer in the log, or more than `limit` changes.
    static func changes(
        of kind: Kind, after sequence: Int64, in database: Database, limit: Int
    ) throws -> [Int64: Before]? {
        let latest = try latestSequence(in: database)
        guard latest > sequence else { return [:] }
        let oldest =
            try database.cachedStatement(sql: "SELECT min(seq) FROM search_changes").firstRow {
                $0.isNull(at: 0) ? nil : $0.int64(at: 0)
            } ?? nil
        // The log must hold every change after `sequence`.
        guard let oldest, oldest <= sequence + 1 else { return nil }
        let fieldCount = kind.searchableFields.count
        let columns = (1...fieldCount).map { "field\($0)" }.joined(separator: ", ")
        var before: [Int64: Before] = [:]
        var count = 0
        var isComplete = true
        try database.cachedStatement(
            sql: """
                SELECT id, existed, \(columns) FROM search_changes
                WHERE seq > ?1 AND kind = ?2 ORDER BY seq LIMIT ?3
                """
        ).forEachRow([sequence, kind.rawValue, limit + 1]) { row in
            count += 1
            guard !row.isNull(at: 0), count <= limit else {
                isComplete = false
                return
            }
            let id = row.int64(at: 0)
            // The first change since tells what the record was before.
            guard before[id] == nil else { return }
            before[id] =
                row.int(at: 1) == 0
                ? .absent : .fields((0..<fieldCount).map { row.text(at: Int32(2 + $0)) })
        }
        return isComplete ? before : nil
    }

    /// Notes that every record of `kind` may have changed (a bulk write), so that no ranking
    /// kept before is brought up to date from the log.
    package static func noteBulkWrite(of kind: Kind, in database: Database) throws {
        try database.cachedStatement(
            sql: "INSERT INTO search_changes(kind, id, existed) VALUES (?1, NULL, 1)"
        ).execute([kind.rawValue])
    }

    /// The triggers that log `kind`'s changes (dropped and restored by ``BulkWriter`` with the
    /// index triggers).
    package static func createTriggersSQL(of kind: Kind) -> String {
        let table = kind.tableName
        let fields = kind.searchableFields
        let columns = (1...fields.count).map { "field\($0)" }.joined(separator: ", ")
        let old = fields.map { "old.\($0)" }.joined(separator: ", ")
        let prune = "DELETE FROM search_changes WHERE seq <= last_insert_rowid() - \(capacity);"
        return """
            CREATE TRIGGER \(table)_log_insert AFTER INSERT ON \(table) BEGIN
                INSERT INTO search_changes(kind, id, existed) VALUES ('\(kind.rawValue)', new.id, 0);
                \(prune)
            END;
            CREATE TRIGGER \(table)_log_delete AFTER DELETE ON \(table) BEGIN
                INSERT INTO search_changes(kind, id, existed, \(columns)) VALUES ('\(kind.rawValue)', old.id, 1, \(old));
                \(prune)
            END;
            CREATE TRIGGER \(table)_log_update AFTER UPDATE OF id, \(fields.joined(separator: ", ")) ON \(table) BEGIN
                INSERT INTO search_changes(kind, id, existed, \(columns)) VALUES ('\(kind.rawValue)', old.id, 1, \(old));
                INSERT INTO search_changes(kind, id, existed) SELECT '\(kind.rawValue)', new.id, 0 WHERE new.id <> old.id;
                \(prune)
            END;
            """
    }

    package static func dropTriggersSQL(of kind: Kind) -> String {
        let table = kind.tableName
        return """
            DROP TRIGGER \(table)_log_insert;
            DROP TRIGGER \(table)_log_delete;
            DROP TRIGGER \(table)_log_update;
            """
    }
}
