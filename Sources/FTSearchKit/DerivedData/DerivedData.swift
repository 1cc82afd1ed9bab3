import FTSearchSQLite

/// Data the engine derives from the records so that searches are fast: the full-text indexes,
/// the tables of row sizes and sort codes, the change log, and the caches of rankings and
/// vocabularies. Each is kept in step with the records (by triggers and by imports), and each
/// says here how `check` compares it with what it is derived from, how `rebuild` makes it
/// again and what `optimize` does to it.
///
/// ``all(in:)`` is the one list of them, in the order they are derived from one another (an
/// index before its row sizes): ``SearchIndex/check()``, ``SearchIndex/rebuild()`` and
/// ``SearchIndex/optimize()`` loop over it instead of naming each. What each costs and buys is
/// in docs/architecture.md.
protocol DerivedData {
    /// The tables it is kept in.
    var tables: [String] { get }

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
    func optimize(in database: Database) throws {}
}

/// The derived data of a database.
enum DerivedDataList {
    /// Every structure `database` has, in the order they are derived from one another.
    static func all(in database: Database) throws -> [any DerivedData] {
        var list: [any DerivedData] = []
        for kind in Kind.allCases {
            let sync = try IndexSync(kind: kind, in: database)
            list.append(sync)
            list += sync.sizes as [any DerivedData]
        }
        list.append(SortCodes.Tables())
        list.append(SearchChanges.Log())
        list.append(ResultCache.Table())
        list.append(Vocabulary.Table())
        list.append(FieldVersions.Table())
        return list
    }
}
