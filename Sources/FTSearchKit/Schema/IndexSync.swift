/// The SQL that keeps a kind's FTS5 index in step with its content table.
///
/// The index is an external-content FTS5 table (https://sqlite.org/fts5.html#external_content_tables):
/// it stores only the tokens, so every change to a searchable column must be told to it. Triggers
/// do that for single-record edits, by any program. Bulk imports instead drop the triggers inside
/// their transaction, tell the index about replaced rows one by one, and index all new rows with
/// one `INSERT ... SELECT` at the end (four times faster than a trigger per row), then put the
/// triggers back before committing — no other connection ever sees the table without them.
struct IndexSync {
    let kind: Kind

    private var table: String { kind.tableName }
    private var index: String { kind.indexName }
    private var columns: String { kind.searchableFields.joined(separator: ", ") }

    private func prefixed(_ prefix: String) -> String {
        kind.searchableFields.map { "\(prefix).\($0)" }.joined(separator: ", ")
    }

    /// Creates the FTS5 table: `unicode61 remove_diacritics 2` folds case and diacritics, and
    /// prefix indexes on 1, 2 and 3 characters make short prefixes fast.
    var createIndexSQL: String {
        """
        CREATE VIRTUAL TABLE \(index) USING fts5(
            \(columns),
            content='\(table)', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2',
            prefix='1 2 3'
        )
        """
    }

    var createTriggersSQL: String {
        """
        CREATE TRIGGER \(table)_index_insert AFTER INSERT ON \(table) BEGIN
            INSERT INTO \(index)(rowid, \(columns)) VALUES (new.id, \(prefixed("new")));
        END;
        CREATE TRIGGER \(table)_index_delete AFTER DELETE ON \(table) BEGIN
            INSERT INTO \(index)(\(index), rowid, \(columns)) VALUES ('delete', old.id, \(prefixed("old")));
        END;
        CREATE TRIGGER \(table)_index_update AFTER UPDATE OF \(columns) ON \(table) BEGIN
            INSERT INTO \(index)(\(index), rowid, \(columns)) VALUES ('delete', old.id, \(prefixed("old")));
            INSERT INTO \(index)(rowid, \(columns)) VALUES (new.id, \(prefixed("new")));
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

    /// Removes row `?1` (as it is now in the content table) from the index.
    var unindexRowSQL: String {
        """
        INSERT INTO \(index)(\(index), rowid, \(columns))
        SELECT 'delete', id, \(columns) FROM \(table) WHERE id = ?1
        """
    }

    /// Indexes the rows with an id above `?1`, and those listed in `temp.\(table)_reindex`.
    var indexNewRowsSQL: String {
        """
        INSERT INTO \(index)(rowid, \(columns))
        SELECT id, \(columns) FROM \(table)
        WHERE id > ?1 OR id IN (SELECT id FROM temp.\(table)_reindex)
        """
    }

    var createReindexListSQL: String {
        "CREATE TEMP TABLE IF NOT EXISTS \(table)_reindex(id INTEGER PRIMARY KEY); DELETE FROM temp.\(table)_reindex"
    }

    var dropReindexListSQL: String { "DROP TABLE IF EXISTS temp.\(table)_reindex" }

    var addToReindexListSQL: String {
        "INSERT OR IGNORE INTO temp.\(table)_reindex(id) VALUES (?1)"
    }

    /// Empties the content table and the index (with the triggers dropped).
    var deleteAllSQL: String {
        "DELETE FROM \(table); INSERT INTO \(index)(\(index)) VALUES ('delete-all')"
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

    /// The stored value of `setting`, if any.
    func storedValueSQL(of setting: Setting) -> String {
        "SELECT v FROM \(index)_config WHERE k = '\(setting.rawValue)'"
    }

    func setSQL(_ setting: Setting, to value: Int) -> String {
        "INSERT INTO \(index)(\(index), rank) VALUES ('\(setting.rawValue)', \(value))"
    }

    /// Rebuilds the whole index from the content table.
    var rebuildSQL: String { "INSERT INTO \(index)(\(index)) VALUES ('rebuild')" }

    /// Checks the index against the content table (https://sqlite.org/fts5.html#the_integrity_check_command).
    var integrityCheckSQL: String {
        "INSERT INTO \(index)(\(index), rank) VALUES ('integrity-check', 1)"
    }

    /// Merges the index's b-trees (https://sqlite.org/fts5.html#the_optimize_command).
    var optimizeSQL: String { "INSERT INTO \(index)(\(index)) VALUES ('optimize')" }
}
