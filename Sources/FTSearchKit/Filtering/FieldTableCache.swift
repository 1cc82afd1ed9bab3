import FTSearchSQLite
import Synchronization

/// The ``FieldTable`` of each kind, kept in memory while the records are as they were read
/// (their ``FieldVersions`` count is unchanged): what spares a search that filters, sorts or
/// counts facets reading every record again. A ``SearchIndexPool``'s connections share one
/// (in its ``SearchMemory``); a lone ``SearchIndex`` has its own.
final class FieldTableCache: Sendable {
    private let tables = Mutex([Kind: (version: Int64, table: FieldTable)]())

    init() {}

    /// `kind`'s table as `database` holds it now (in the caller's read transaction), read
    /// again only when the records changed since it was kept.
    func table(of kind: Kind, in database: Database, tokenizer: FTS5Tokenizer) throws
        -> FieldTable
    {
        let version = try FieldVersions.version(of: kind, in: database)
        if let kept = tables.withLock({ $0[kind] }), kept.version == version {
            return kept.table
        }
        let table = try FieldTable.load(kind, from: database, tokenizer: tokenizer)
        tables.withLock { $0[kind] = (version, table) }
        return table
    }
}
