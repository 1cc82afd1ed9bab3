package import FTSearchSQLite

/// Data the engine derives from the records so that searches are fast: the full-text indexes,
/// the tables of row sizes and sort codes, the change log, and the caches of rankings and
/// vocabularies. Each is kept in step with the records, and each says here how: the triggers
/// that follow single-record writes, what it does around an import's bulk write (which drops
/// every trigger), how `check` compares it with what it is derived from, how `rebuild` makes
/// it again and what `optimize` does to it.
///
/// ``DerivedDataList/all(in:)`` is the one list of them, in the order they are derived from one
/// another (an index before its row sizes): the new-database schema, ``BulkWriter`` (imports),
/// ``SearchIndex/check()``, ``SearchIndex/rebuild()`` and ``SearchIndex/optimize()`` loop over
/// it instead of naming each. What each costs and buys is in docs/architecture.md.
///
/// What a structure's tables are made with is not here: a database's tables are what its
/// migrations made (frozen SQL, see ``Schema``), never what live code says now.
protocol DerivedData {
    /// The tables it is kept in.
    var tables: [String] { get }

    /// The triggers that keep it in step with single-record writes of `kind`'s records; nil
    /// when it has none (a cache keyed by what it was made at, or a structure of another kind).
    func triggers(of kind: Kind) -> Triggers?

    /// What keeps it in step with a bulk write of `kind`'s records (an import), during which
    /// its triggers are dropped; nil when nothing does (it has no triggers, or noting nothing
    /// while they are dropped is right).
    func bulkWrite(of kind: Kind, in database: Database) throws -> (any DerivedBulkWrite)?

    /// Where it disagrees with what it is derived from; empty when it agrees. `scratch` is
    /// where a check that runs a write statement (FTS5's integrity check) runs: the database
    /// itself, or a private copy of it when this process can only read.
    func problems(in database: Database, scratch: Database) throws -> [DatabaseProblem]

    /// Makes it again from what it is derived from (a cache forgets everything), inside the
    /// caller's write transaction.
    func rebuild(in database: Database) throws

    /// What merging the indexes does to it (``SearchIndex/optimize()``), inside the caller's
    /// write transaction; nothing by default.
    func optimize(in database: Database) throws
}

extension DerivedData {
    func triggers(of kind: Kind) -> Triggers? { nil }

    func bulkWrite(of kind: Kind, in database: Database) throws -> (any DerivedBulkWrite)? {
        nil
    }

    func optimize(in database: Database) throws {}
}

/// The SQL that creates a structure's triggers on one kind's records, and drops them.
struct Triggers {
    let createSQL: String
    let dropSQL: String
}

/// One derived structure kept in step with a bulk write of one kind's records: told when the
/// write begins (every structure's triggers dropped), about the rows as they are written, and
/// when the rows are all written (before the triggers are restored), all inside the writer's
/// transaction. See ``BulkWriter``.
protocol DerivedBulkWrite: AnyObject {
    /// Whether it wants ``wrote(_:row:of:)`` and ``moved(from:to:)``: asked once.
    var followsRows: Bool { get }

    /// The write begins; with `replacingAll`, every record of the kind is being deleted, and
    /// it forgets what it holds of them.
    func begin(replacingAll: Bool) throws

    /// The stored record `id` is about to be replaced: told once a write, before its new values
    /// are stored.
    func willReplace(_ id: Int64) throws

    /// Stored the record at `row` of `records` as `id`.
    func wrote(_ id: Int64, row: Int, of records: EncodedRecords)

    /// The record this write stored as `from` (an id SQLite gave it) now has the id `to`.
    func moved(from: Int64, to: Int64)

    /// Every row is written: brings itself up to date with those of `write`.
    func finish(_ write: BulkWriteRows) throws
}

extension DerivedBulkWrite {
    var followsRows: Bool { false }
    func begin(replacingAll: Bool) throws {}
    func willReplace(_ id: Int64) throws {}
    func wrote(_ id: Int64, row: Int, of records: EncodedRecords) {}
    func moved(from: Int64, to: Int64) {}
}

/// The rows a bulk write of one kind stored: those with an id above the highest stored before
/// it, and those listed in a temporary table (replaced records, and lower ids SQLite gave).
struct BulkWriteRows {
    let kind: Kind
    /// The highest id stored before the write.
    let highestIDBefore: Int64

    /// The temporary table listing the written ids at or below ``highestIDBefore``.
    var listTable: String { "temp.\(kind.tableName)_written" }

    /// A condition on `id` that holds for the rows written, with ``highestIDBefore`` bound to
    /// `?1`.
    var conditionSQL: String { "id > ?1 OR id IN (SELECT id FROM \(listTable))" }

    static func createListSQL(of kind: Kind) -> String {
        let table = kind.tableName
        return "CREATE TEMP TABLE IF NOT EXISTS \(table)_written(id INTEGER PRIMARY KEY);"
            + " DELETE FROM temp.\(table)_written"
    }

    static func dropListSQL(of kind: Kind) -> String {
        "DROP TABLE IF EXISTS temp.\(kind.tableName)_written"
    }

    static func addToListSQL(of kind: Kind) -> String {
        "INSERT OR IGNORE INTO temp.\(kind.tableName)_written(id) VALUES (?1)"
    }
}

/// The derived data of a database.
package enum DerivedDataList {
    /// Every structure `database` has, in the order they are derived from one another.
    static func all(in database: Database) throws -> [any DerivedData] {
        var list: [any DerivedData] = []
        for kind in Kind.allCases {
            let sync = try IndexSync(kind: kind, in: database)
            list.append(sync)
            list += sync.sizes as [any DerivedData]
        }
        list.append(WriteNotes<SearchChanges>(tables: ["search_changes"]))
        list.append(SortCodes.Tables())
        list.append(ResultCache.Table())
        list.append(Vocabulary.Table())
        list.append(WriteNotes<FieldVersions>(tables: ["record_versions"]))
        list.append(FieldColumnStore.Table())
        return list
    }

    /// What is wrong with any structure of `database` (see ``DerivedData/problems(in:scratch:)``).
    package static func problems(in database: Database, scratch: Database) throws
        -> [DatabaseProblem]
    {
        try all(in: database).flatMap { try $0.problems(in: database, scratch: scratch) }
    }

    /// Makes every structure of `database` again, in the caller's transaction.
    package static func rebuild(in database: Database) throws {
        for data in try all(in: database) { try data.rebuild(in: database) }
    }

    /// Merges every structure of `database` that can be, in the caller's transaction.
    package static func optimize(in database: Database) throws {
        for data in try all(in: database) { try data.optimize(in: database) }
    }
}
