package import FTSearchSQLite

/// Writes the records of one kind during an import transaction, keeping the FTS index exact.
///
/// On ``begin(replacingAll:)`` it drops the triggers of every piece of derived data
/// (``DerivedDataList``) and begins each one's ``DerivedBulkWrite``; each ``write(_:)``
/// upserts a content row, first telling them when a stored row is about to be replaced, then
/// that it was written; ``finish()`` has each bring itself up to date with the rows written
/// (the full-text indexes index them with one statement per index, their row sizes and sort
/// codes are written by blocks, the change log and the record versions note one bulk write),
/// and restores the triggers. The rows written are those above the highest id stored before,
/// and the lower ones listed in a temporary table (``BulkWriteRows``). All of it happens
/// inside the caller's transaction.
///
/// A record without an id gets the one SQLite picks. When a later record of the same write names
/// that id, the earlier record moves to another id SQLite picks: nobody asked for its first one,
/// and the later record must not replace it.
///
/// The store API writes its few records with the same statement, leaving the triggers to index
/// each row (``Indexing/byTriggers``).
package final class BulkWriter {
    /// Whether ``write(_:)`` created a record or replaced one.
    package enum Outcome {
        case inserted
        case updated
    }

    /// How the full-text index follows the writes.
    package enum Indexing {
        /// The triggers are dropped and the rows written indexed by one statement at the end:
        /// for imports.
        case atFinish
        /// The triggers stay and index each row as it is written: for a few records, where
        /// dropping and restoring the triggers (a schema change) costs more than the rows.
        case byTriggers
    }

    package let kind: Kind
    let indexing: Indexing
    /// Records written as new and as replacements, counted by the importer.
    package var insertedCount = 0
    package var updatedCount = 0
    /// The map an import's records' sort codes were made with (``EncodedRecords``).
    package var sortCodeMap = SortCodeMap.empty
    /// Told each time a record this write gave an id moves to another one (from, to).
    package var onMove: (_ from: Int64, _ to: Int64) -> Void = { _, _ in }
    private let database: Database
    /// The triggers dropped for the write, restored at its finish.
    private var triggers: [Triggers] = []
    /// The derived data following the write, in the order they are derived from one another.
    private var followers: [any DerivedBulkWrite] = []
    /// Those of ``followers`` told about each row.
    private var rowFollowers: [any DerivedBulkWrite] = []
    private let timestamp: Int64
    private var highestIDBefore: Int64 = 0
    /// The highest id stored so far: a record with a higher id is new, no lookup needed.
    private var highestID: Int64 = 0
    /// The ids SQLite gave this write's records that had none.
    private var assignedIDs = IDRuns()
    /// The table's secondary indexes, dropped while bulk-filling an empty table (one sort at
    /// the end beats a random b-tree insert per row), as (name, CREATE statement).
    private var droppedIndexes: [(name: String, sql: String)] = []
    private var upsert: Statement?
    private var exists: Statement?
    private var addToWrittenList: Statement?
    private var moveRecord: (copy: Statement, delete: Statement)?

    package init(
        kind: Kind, database: Database, timestamp: Timestamp, indexing: Indexing = .atFinish
    )
        throws
    {
        self.kind = kind
        self.indexing = indexing
        self.database = database
        self.timestamp = StoredTime.value(of: timestamp)
    }

    /// Prepares the table for bulk writing; with `replacingAll`, empties it first.
    package func begin(replacingAll: Bool) throws {
        precondition(!replacingAll || indexing == .atFinish, "replacing all is a bulk write")
        if indexing == .atFinish {
            let derived = try DerivedDataList.all(in: database)
            triggers = derived.compactMap { $0.triggers(of: kind) }
            try database.execute(sql: triggers.map(\.dropSQL).joined())
            followers = try derived.compactMap { try $0.bulkWrite(of: kind, in: database) }
            rowFollowers = followers.filter(\.followsRows)
            if replacingAll {
                try database.execute(sql: "DELETE FROM \(kind.tableName)")
            }
            for follower in followers { try follower.begin(replacingAll: replacingAll) }
        }
        try database.execute(sql: BulkWriteRows.createListSQL(of: kind))
        highestIDBefore = Int64(
            try database.fetchInt(sql: "SELECT max(id) FROM \(kind.tableName)") ?? 0)
        highestID = highestIDBefore
        if indexing == .atFinish,
            try database.fetchInt(sql: "SELECT 1 FROM \(kind.tableName) LIMIT 1") == nil
        {
            try dropSecondaryIndexes()
        }
        let columns = kind.searchableFields
        let assignments = (columns + ["extra", "updated_at"]).map { "\($0) = excluded.\($0)" }
        let parameters = (0..<columns.count + 2).map { "?\($0 + 1)" }
        // The record's own timestamps, when it has them (?created, ?updated), else the import's.
        let (created, updated, now) = (columns.count + 3, columns.count + 4, columns.count + 5)
        upsert = try database.makeStatement(
            sql: """
                INSERT INTO \(kind.tableName)(id, \(columns.joined(separator: ", ")), extra, created_at, updated_at)
                VALUES (\(parameters.joined(separator: ", ")), coalesce(?\(created), ?\(now)), coalesce(?\(updated), ?\(now)))
                ON CONFLICT(id) DO UPDATE SET \(assignments.joined(separator: ", ")), created_at = coalesce(?\(created), created_at)
                """)
        exists = try database.makeStatement(sql: "SELECT 1 FROM \(kind.tableName) WHERE id = ?1")
        addToWrittenList = try database.makeStatement(sql: BulkWriteRows.addToListSQL(of: kind))
        let copiedColumns = (columns + ["extra", "created_at", "updated_at"]).joined(
            separator: ", ")
        moveRecord = (
            try database.makeStatement(
                sql: """
                    INSERT INTO \(kind.tableName)(\(copiedColumns)) SELECT \(copiedColumns) FROM \(kind.tableName) WHERE id = ?1
                    """),
            try database.makeStatement(sql: "DELETE FROM \(kind.tableName) WHERE id = ?1")
        )
    }

    /// Inserts `record`, or replaces the stored record with the same id.
    package func write(_ record: Record) throws -> Outcome {
        var records = EncodedRecords()
        records.append(record, codedBy: indexing == .atFinish ? sortCodeMap : nil)
        return try write(row: 0, of: records)
    }

    /// Inserts the record at `row` of `records`, or replaces the stored record with its id.
    package func write(row: Int, of records: EncodedRecords) throws -> Outcome {
        guard let upsert else { preconditionFailure("begin() must be called before write(_:)") }
        let record = records.rows[row]
        if let id = record.id, assignedIDs.contains(id) {
            try moveAssignedRecord(awayFrom: id)
        }
        let outcome =
            indexing == .byTriggers
            ? try outcomeIndexedByTriggers(forRecordWithID: record.id)
            : try prepareIndex(forRecordWithID: record.id)
        try upsert.bind(record.id, at: 1)
        // The searchable values, then the extra fields' JSON.
        let texts = kind.searchableFields.count + 1
        for text in 0..<texts {
            try records.withText(text, ofRow: row) {
                try upsert.bind(utf8: $0, at: Int32(text + 2))
            }
        }
        let index = Int32(texts + 2)
        try upsert.bind(record.createdAt, at: index)
        try upsert.bind(record.updatedAt, at: index + 1)
        try upsert.bind(timestamp, at: index + 2)
        try givingNoIDPastTheLargest(hasID: record.id != nil) { try upsert.step() }
        upsert.reset()
        if record.id == nil {
            try noteAssignedID()
        }
        if !rowFollowers.isEmpty {
            let id = record.id ?? database.lastInsertedRowID
            for follower in rowFollowers { follower.wrote(id, row: row, of: records) }
        }
        return outcome
    }

    /// Runs `insert`; when it gives a record without an id one and every id up to the largest
    /// has been given (ids are never given twice since migration 16, so SQLite answers
    /// SQLITE_FULL), says so rather than that the disk is full.
    private func givingNoIDPastTheLargest(hasID: Bool, _ insert: () throws -> Void) throws {
        do {
            try insert()
        } catch let error as SQLiteError where !hasID && error.isDiskFull {
            let given = try database.fetchInt(
                sql: "SELECT seq FROM sqlite_sequence WHERE name = ?1", arguments: [kind.tableName])
            guard given.map(Int64.init) == Int64.max else { throw error }
            throw RecordStoreError.invalidRecord(
                kind: kind, position: nil,
                reason: "no id is left for a \(kind.singularNoun) without one: ids are never "
                    + "given twice, and the largest, \(Int64.max), has been given; give the "
                    + "record an id")
        }
    }

    /// Notes the id SQLite gave the row just inserted without one: one more than the highest
    /// ever given (https://sqlite.org/autoinc.html).
    /// The row is indexed under the id it got, listed when it is not above the old highest.
    private func noteAssignedID() throws {
        let id = database.lastInsertedRowID
        if indexing == .atFinish && id <= highestIDBefore {
            try addToWrittenList?.execute([id])
        }
        highestID = max(highestID, id)
        assignedIDs.insert(id)
    }

    /// Moves the record this write stored under an id SQLite picked to another such id, for a
    /// record that names the id. Its old id was unused before this write, so the index holds it
    /// not yet (it is indexed at the finish) or by the triggers, which follow the move.
    private func moveAssignedRecord(awayFrom id: Int64) throws {
        guard let moveRecord else { return }
        try givingNoIDPastTheLargest(hasID: false) { try moveRecord.copy.execute([id]) }
        try moveRecord.delete.execute([id])
        assignedIDs.remove(id)
        try noteAssignedID()
        for follower in rowFollowers { follower.moved(from: id, to: database.lastInsertedRowID) }
        onMove(id, database.lastInsertedRowID)
    }

    /// Whether the record with this id is stored, when the triggers do the indexing.
    private func outcomeIndexedByTriggers(forRecordWithID id: Int64?) throws -> Outcome {
        guard let id, let exists else { return .inserted }
        return try exists.firstRow([id]) { _ in true } ?? false ? .updated : .inserted
    }

    /// Lists a written id at or below the old highest, and tells the derived data when a stored
    /// row is about to be replaced (once per write); rows above the old highest id are written
    /// anyway.
    private func prepareIndex(forRecordWithID id: Int64?) throws -> Outcome {
        guard let id, let exists, let addToWrittenList else { return .inserted }
        if id > highestID {
            highestID = id
            return .inserted
        }
        let isStored = try exists.firstRow([id]) { _ in true } ?? false
        guard id <= highestIDBefore else { return isStored ? .updated : .inserted }
        try addToWrittenList.execute([id])
        if isStored && database.changesCount == 1 {
            for follower in followers { try follower.willReplace(id) }
        }
        return isStored ? .updated : .inserted
    }

    private func dropSecondaryIndexes() throws {
        let statement = try database.makeStatement(
            sql: """
                SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?1 AND sql IS NOT NULL
                """)
        try statement.forEachRow([kind.tableName]) { row in
            droppedIndexes.append((row.text(at: 0) ?? "", row.text(at: 1) ?? ""))
        }
        for index in droppedIndexes {
            try database.execute(sql: "DROP INDEX \"\(index.name)\"")
        }
    }

    /// Brings every piece of derived data up to date with the rows written, and restores the
    /// triggers.
    package func finish() throws {
        guard indexing == .atFinish else { return }
        let written = BulkWriteRows(kind: kind, highestIDBefore: highestIDBefore)
        for follower in followers { try follower.finish(written) }
        for index in droppedIndexes {
            try database.execute(sql: index.sql)
        }
        droppedIndexes = []
        try database.execute(
            sql: BulkWriteRows.dropListSQL(of: kind) + ";" + triggers.map(\.createSQL).joined())
        followers = []
        rowFollowers = []
        upsert = nil
        exists = nil
        addToWrittenList = nil
        moveRecord = nil
    }
}
