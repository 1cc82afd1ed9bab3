import FTSearchSQLite
import Synchronization

/// The columns of each kind's records that searches have read (see ``FieldTable``), kept in
/// memory while the records are as they were read (their ``FieldVersions`` count is
/// unchanged): what spares a search that filters, sorts or counts facets reading the records
/// again. A ``SearchIndexPool``'s connections share one (in its ``SearchMemory``); a lone
/// ``SearchIndex`` has its own.
package final class FieldTableCache: Sendable {
    private struct Kept {
        var version: Int64
        var records: RowSet
        var columns: [String: FieldColumn]
        /// The matches of the last searches that sorted or counted facets, latest last.
        var matches: [(search: MatchKey, rows: RowSet)] = []
    }

    /// What decides which records a search matches: its text, how it matches, the fields it
    /// searches and its filter (not its weights, sort, facets or page).
    struct MatchKey: Equatable {
        var text: String
        var match: MatchMode
        var fields: [String]?
        var filter: Filter?

        init(_ request: SearchRequest) {
            (text, match, fields, filter) = (
                request.text, request.match, request.fields, request.filter
            )
        }
    }

    /// How many searches' matches it keeps a kind: a page of results and its next pages, or
    /// its facet panel's searches of values, find theirs.
    static let keptMatchSets = 16

    private let kept = Mutex([Kind: Kept]())

    package init() {}

    /// `kind`'s table with at least the columns of `fields`, as `database` holds them now
    /// (in the caller's read transaction): those this cache holds, then those kept on disk
    /// for the records' version (``FieldColumnStore``), then the rest read from the records
    /// and added to `read` (for the caller to keep on disk once its transaction is over).
    /// Without a cache to keep them in (`cache` nil), nothing is kept in memory.
    static func table(
        of kind: Kind, fields: Set<String>, in database: Database, tokenizer: FTS5Tokenizer,
        cache: FieldTableCache?, read: inout [FieldColumnStore.Entry]
    ) throws -> FieldTable {
        let version = try FieldVersions.version(of: kind, in: database)
        let held = cache?.kept.withLock { kept -> Kept? in
            kept[kind].flatMap { $0.version == version ? $0 : nil }
        }
        var missing = fields.filter { held?.columns[$0] == nil }.sorted()
        // Every column kept for one version was read with the same records.
        var stored: [String: FieldColumn] = [:]
        var storedRecords: RowSet?
        for field in missing {
            guard
                let (column, records) = try FieldColumnStore.column(
                    of: field, kind: kind, version: version, in: database)
            else { continue }
            stored[field] = column
            if storedRecords == nil { storedRecords = records }
        }
        missing.removeAll { stored[$0] != nil }
        var entry =
            try held
            ?? Kept(
                version: version,
                records: storedRecords ?? FieldTable.loadRecords(of: kind, from: database),
                columns: [:])
        entry.columns.merge(stored) { _, theirs in theirs }
        if !missing.isEmpty {
            var folding = TextFolding(tokenizer: tokenizer)
            for field in missing {
                let column = try FieldTable.loadColumn(
                    field, of: kind, capacity: entry.records.capacity, from: database,
                    folding: &folding)
                entry.columns[field] = column
                read.append(
                    FieldColumnStore.Entry(
                        kind: kind, field: field, version: version, records: entry.records,
                        column: column))
            }
        }
        cache?.kept.withLock { kept in
            // Another search may have added columns meanwhile: keep both.
            if let theirs = kept[kind], theirs.version == version {
                entry.columns.merge(theirs.columns) { mine, _ in mine }
            }
            kept[kind] = entry
        }
        return FieldTable(
            kind: kind, version: version, records: entry.records, columns: entry.columns)
    }

    /// The matches of `search` among `table`'s records, if kept.
    func matches(of search: MatchKey, in table: FieldTable) -> RowSet? {
        kept.withLock { kept in
            guard let entry = kept[table.kind], entry.version == table.version else { return nil }
            return entry.matches.last { $0.search == search }?.rows
        }
    }

    /// Keeps `rows`, the matches of `search` among `table`'s records, while they are current.
    func keep(_ rows: RowSet, of search: MatchKey, in table: FieldTable) {
        kept.withLock { kept in
            guard var entry = kept[table.kind], entry.version == table.version else { return }
            entry.matches.removeAll { $0.search == search }
            entry.matches.append((search, rows))
            if entry.matches.count > Self.keptMatchSets { entry.matches.removeFirst() }
            kept[table.kind] = entry
        }
    }
}
