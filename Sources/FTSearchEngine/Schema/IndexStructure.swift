import FTSearchSQLite

/// FTS5's structure record of an index: row 10 of its `%_data` table, the list of its segments,
/// which FTS5 rewrites on every change to the index: a write adds a segment and counts it, a
/// merge replaces segments, a setting changes its cookie (its first four bytes). FTS5's
/// `rebuild` starts it over (its count back to zero), so ``SearchIndex/rebuild()`` writes
/// settings around it: else it could give the index back a record it had before.
///
/// What is derived from an index and kept (its vocabulary, the rankings of expensive searches)
/// is stored with the structure record it was derived from; when the index's record is no
/// longer that one, the kept copy is stale.
enum IndexStructure {
    /// The structure record of the FTS5 table named `index`; empty when it has none yet. In a
    /// read transaction of ``Database/readingOneVersion(_:)`` each index's is read once: a
    /// search checks its variant gates (``VariantGates``), its kept ranking's slot
    /// (``ResultCache``) and the row blocks it keeps (``RowBlockReader``) against one record.
    static func record(ofIndexNamed index: String, in database: Database) throws -> [UInt8] {
        guard let transaction = database.readTransaction else {
            return try read(ofIndexNamed: index, in: database)
        }
        let reads = database.kept(Reads.self) { Reads() }
        if reads.transaction != transaction {
            (reads.transaction, reads.records) = (transaction, [])
        }
        if let kept = reads.records.first(where: { $0.index == index }) { return kept.record }
        let record = try read(ofIndexNamed: index, in: database)
        reads.records.append((index, record))
        return record
    }

    private static func read(ofIndexNamed index: String, in database: Database) throws
        -> [UInt8]
    {
        try database.cachedStatement(sql: "SELECT block FROM \(index)_data WHERE id = 10")
            .firstRow { $0.bytes(at: 0) } ?? []
    }

    /// The records a connection read in its current read transaction: one to three indexes'.
    private final class Reads {
        var transaction = 0
        var records: [(index: String, record: [UInt8])] = []
    }

    /// Gives the FTS5 table named `index` a new structure record without changing the index:
    /// writes its `automerge` setting as it is, which FTS5 counts in the record's cookie. What
    /// connections keep at the record before is then stale, as after a write to the index: for
    /// what is kept by the index's record but changed apart from it (the sort codes, when
    /// their map is made again).
    static func renew(ofIndexNamed index: String, in database: Database) throws {
        let setting = IndexSync.Setting.automerge
        let value = try database.fetchInt(
            sql: "SELECT v FROM \(index)_config WHERE k = '\(setting.rawValue)'")
        try database.execute(
            sql: "INSERT INTO \(index)(\(index), rank) VALUES ('\(setting.rawValue)', "
                + "\(value ?? setting.defaultValue))")
    }
}
