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
    /// The structure record of the FTS5 table named `index`; empty when it has none yet.
    static func record(ofIndexNamed index: String, in database: Database) throws -> [UInt8] {
        try database.cachedStatement(sql: "SELECT block FROM \(index)_data WHERE id = 10")
            .firstRow { $0.bytes(at: 0) } ?? []
    }

    /// The structure records read in one read transaction, each index's read once: a search
    /// checks the variant lookups it keeps (``VariantGates``) and its kept ranking's slot
    /// (``ResultCache``) against the same record. Only for the transaction it was made in.
    final class Reads {
        private let database: Database
        private var records: [String: [UInt8]] = [:]

        init(in database: Database) { self.database = database }

        /// The structure record of the FTS5 table named `index`.
        func record(ofIndexNamed index: String) throws -> [UInt8] {
            if let record = records[index] { return record }
            let record = try IndexStructure.record(ofIndexNamed: index, in: database)
            records[index] = record
            return record
        }
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
