package import FTSearchSQLite

/// The SQL that keeps a kind's FTS5 indexes in step with its content table.
///
/// Each index is an external-content FTS5 table (https://sqlite.org/fts5.html#external_content_tables):
/// it stores only the tokens, so every change to a searchable column must be told to it. Triggers
/// do that for single-record edits, by any program that has ftsearch's tokenizers. Bulk imports
/// instead drop the triggers inside their transaction, tell the indexes about replaced rows one
/// by one, and index all new rows with one `INSERT ... SELECT` per index at the end (four times
/// faster than a trigger per row), then put the triggers back before committing — no other
/// connection ever sees the table without them.
///
/// A kind has a word index, and a substring index once a substring search has built it (see
/// ``FullTextIndex``). ``init(kind:in:)`` lists the indexes the database has, so the triggers,
/// the bulk path, re-indexing, checks, rebuilds and optimizing all follow whatever exists.
package struct IndexSync {
    let kind: Kind
    package let indexes: [FullTextIndex]
    /// The row sizes kept of `indexes` (see ``RowSizes``): of each, but a substring index that
    /// an earlier ftsearch built without them (the next substring search that may write
    /// builds it again, see ``IndexBuilder``).
    let sizes: [RowSizes]

    /// The sync of the indexes `kind` has in `database`: its word index, and its substring
    /// index when it has been built; with the row sizes tables they have.
    package init(kind: Kind, in database: Database) throws {
        func exists(_ table: String) throws -> Bool {
            try database.tableDefinition(named: table) != nil
        }
        let existing = try FullTextIndex.all(of: kind).filter { try exists($0.name) }
        let sizes = try existing.map { RowSizes(of: $0, kind: kind) }
            .filter { try exists($0.table) }
        self.init(kind: kind, indexes: existing, sizes: sizes)
    }

    /// The sync of exactly `indexes`, each with its row sizes, whatever the database has now
    /// (for the index builder, which fills or drops one index before or after it exists).
    init(kind: Kind, indexes: [FullTextIndex]) {
        self.init(kind: kind, indexes: indexes, sizes: indexes.map { RowSizes(of: $0, kind: kind) })
    }

    private init(kind: Kind, indexes: [FullTextIndex], sizes: [RowSizes]) {
        self.kind = kind
        self.indexes = indexes
        self.sizes = sizes
    }

    private var table: String { kind.tableName }
    private var columns: String { kind.searchableFields.joined(separator: ", ") }

    private func prefixed(_ prefix: String) -> String {
        kind.searchableFields.map { "\(prefix).\($0)" }.joined(separator: ", ")
    }

    /// Creates the FTS5 tables and their row sizes tables.
    var createIndexesSQL: String {
        indexes.map { index in
            """
            CREATE VIRTUAL TABLE \(index.name) USING fts5(
                \(columns),
                content='\(table)', content_rowid='id',
                \(index.options)
            );
            """
        }.joined(separator: "\n") + sizes.map(\.blocks.createTableSQL).joined()
    }

    /// The triggers: each write tells every index, and an indexed row's size goes to each
    /// index's ``RowSizes``. A record given another id (by another program's SQL) is taken
    /// out of the indexes under its old id and indexed under its new one.
    var createTriggersSQL: String {
        let insert =
            (indexes.map {
                "INSERT INTO \($0.name)(rowid, \(columns)) VALUES (new.id, \(prefixed("new")));"
            } + sizes.map(\.recordRowSQL)).joined(separator: "\n    ")
        let delete = indexes.map {
            "INSERT INTO \($0.name)(\($0.name), rowid, \(columns)) VALUES ('delete', old.id, \(prefixed("old")));"
        }.joined(separator: "\n    ")
        return """
            CREATE TRIGGER \(table)_index_insert AFTER INSERT ON \(table) BEGIN
                \(insert)
            END;
            CREATE TRIGGER \(table)_index_delete AFTER DELETE ON \(table) BEGIN
                \(delete)
            END;
            CREATE TRIGGER \(table)_index_update AFTER UPDATE OF id, \(columns) ON \(table) BEGIN
                \(delete)
                \(insert)
            END;
            """
    }

    var dropTriggersSQL: String {
        """
        DROP TRIGGER \(table)_index_insert;
        DROP TRIGGER \(table)_index_delete;
        DROP TRIGGER \(table)_index_update;
        """
    }

    /// Drops the FTS5 tables and their row sizes tables.
    var dropIndexesSQL: String {
        (indexes.map { "DROP TABLE \($0.name);" } + sizes.map(\.blocks.dropTableSQL))
            .joined(separator: "\n")
    }

    /// Removes row `?1` (as it is now in the content table) from each index: one statement each.
    var unindexRowSQL: [String] {
        indexes.map {
            """
            INSERT INTO \($0.name)(\($0.name), rowid, \(columns))
            SELECT 'delete', id, \(columns) FROM \(table) WHERE id = ?1
            """
        }
    }

    /// Indexes the rows a bulk write stored (``BulkWriteRows``, its highest id before bound to
    /// `?1`): one statement per index.
    func indexSQL(of rows: BulkWriteRows) -> [String] {
        indexes.map {
            """
            INSERT INTO \($0.name)(rowid, \(columns))
            SELECT id, \(columns) FROM \(table) WHERE \(rows.conditionSQL)
            """
        }
    }

    /// Indexes the rows with ids from `?1` and below `?2` (NULL: no bound): one statement per
    /// index.
    var indexRowRangeSQL: [String] {
        indexes.map {
            """
            INSERT INTO \($0.name)(rowid, \(columns))
            SELECT id, \(columns) FROM \(table) WHERE id >= ?1 AND (?2 IS NULL OR id < ?2)
            """
        }
    }

    /// Empties the indexes (with the triggers dropped, the content table being emptied).
    var deleteAllSQL: String {
        indexes.map { "INSERT INTO \($0.name)(\($0.name)) VALUES ('delete-all');" }
            .joined(separator: "\n")
    }

    /// An FTS5 configuration option (https://sqlite.org/fts5.html#fts5_configuration_options).
    enum Setting: String {
        /// How many segments of a level are merged during writes.
        case automerge
        /// The bytes of index the in-memory hash holds before it is written out as a segment.
        case hashsize
        /// How many segments of a level force a merge during writes.
        case crisismerge

        /// FTS5's value when none is stored.
        var defaultValue: Int {
            switch self {
            case .automerge: 4
            case .hashsize: 1 << 20
            case .crisismerge: 16
            }
        }
    }

    /// The value of `setting` stored for `index`, if any.
    func storedValueSQL(of setting: Setting, in index: FullTextIndex) -> String {
        "SELECT v FROM \(index.name)_config WHERE k = '\(setting.rawValue)'"
    }

    /// Stores `value` as `index`'s `setting`.
    func setSQL(_ setting: Setting, to value: Int, in index: FullTextIndex) -> String {
        "INSERT INTO \(index.name)(\(index.name), rank) VALUES ('\(setting.rawValue)', \(value))"
    }

    /// FTS5 settings for filling an index with few big statements (an import's `INSERT …
    /// SELECT`, building an index on first use). Merging segments while they are written makes
    /// it 1.6 times slower, so automerge is off. FTS5 writes a segment each time its in-memory
    /// hash holds `hashsize` bytes of index (1 MiB by default), and crisis-merges a level's
    /// segments when there are `crisismerge` of them (16): the merged segments' pages are left
    /// free, a fifth of the file after 100k people. An 8 MiB hash writes 8 times fewer segments
    /// (for about 10 MiB more memory), and at most 64 of them are kept unmerged, so no merge
    /// happens below about 2.5M people and no page is freed.
    static let bulkSettings: [(Setting, Int)] = [
        (.automerge, 0), (.hashsize, 8 << 20), (.crisismerge, 64),
    ]

    /// Runs `body` with every index set for bulk writing (``bulkSettings``), then puts back the
    /// settings each index had, inside the caller's transaction.
    func withBulkSettings<T>(in database: Database, _ body: () throws -> T) throws -> T {
        let stored = try indexes.map { index in
            try Self.bulkSettings.map { setting, _ in
                try database.fetchInt(sql: storedValueSQL(of: setting, in: index))
            }
        }
        for index in indexes {
            for (setting, value) in Self.bulkSettings {
                try database.execute(sql: setSQL(setting, to: value, in: index))
            }
        }
        let result = try body()
        for (index, values) in zip(indexes, stored) {
            for ((setting, _), value) in zip(Self.bulkSettings, values) {
                try database.execute(
                    sql: setSQL(setting, to: value ?? setting.defaultValue, in: index))
            }
        }
        return result
    }

    /// Rebuilds every index from the content table.
    var rebuildSQL: String { command("rebuild") }

    /// Checks each index against the content table (https://sqlite.org/fts5.html#the_integrity_check_command).
    func integrityCheckSQL(of index: FullTextIndex) -> String {
        "INSERT INTO \(index.name)(\(index.name), rank) VALUES ('integrity-check', 1)"
    }

    /// Merges the indexes' b-trees (https://sqlite.org/fts5.html#the_optimize_command).
    var optimizeSQL: String { command("optimize") }

    private func command(_ name: String) -> String {
        indexes.map { "INSERT INTO \($0.name)(\($0.name)) VALUES ('\(name)');" }
            .joined(separator: "\n")
    }
}
