import FTSearchSQLite
import Synchronization

/// The columns of each kind's records that searches have read (see ``FieldTable``), kept in
/// memory while the records are as they were read (their ``FieldVersions`` count is
/// unchanged): what spares a search that filters, sorts or counts facets reading the records
/// again. A ``SearchIndexPool``'s connections share one (in its ``SearchMemory``); a lone
/// ``SearchIndex`` has its own.
final class FieldTableCache: Sendable {
    private struct Kept {
        var version: Int64
        var records: RowSet
        var columns: [String: FieldColumn]
    }

    private let kept = Mutex([Kind: Kept]())

    init() {}

    /// `kind`'s table with at least the columns of `fields`, as `database` holds them now
    /// (in the caller's read transaction); without a cache to keep them in (`cache` nil),
    /// read now.
    static func table(
        of kind: Kind, fields: Set<String>, in database: Database, tokenizer: FTS5Tokenizer,
        cache: FieldTableCache?
    ) throws -> FieldTable {
        let version = try FieldVersions.version(of: kind, in: database)
        var entry = cache?.kept.withLock { kept -> Kept? in
            kept[kind].flatMap { $0.version == version ? $0 : nil }
        }
        if entry == nil {
            entry = Kept(
                version: version, records: try FieldTable.loadRecords(of: kind, from: database),
                columns: [:])
        }
        guard var entry else { preconditionFailure("made above") }
        let missing = fields.subtracting(entry.columns.keys)
        if !missing.isEmpty {
            var folding = TextFolding(tokenizer: tokenizer)
            for field in missing.sorted() {
                entry.columns[field] = try FieldTable.loadColumn(
                    field, of: kind, capacity: entry.records.capacity, from: database,
                    folding: &folding)
            }
        }
        cache?.kept.withLock { kept in
            // Another search may have added columns meanwhile: keep both.
            if let theirs = kept[kind], theirs.version == version {
                entry.columns.merge(theirs.columns) { mine, _ in mine }
            }
            kept[kind] = entry
        }
        return FieldTable(kind: kind, records: entry.records, columns: entry.columns)
    }
}
