package import FTSearchSQLite

/// Writes the records of one kind during an import transaction, keeping the FTS index exact.
///
/// On ``begin(replacingAll:)`` it drops the triggers of every piece of derived data
/// (``DerivedDataList``) and begins each one's ``DerivedBulkWrite``; each
/// ``write(rows:of:)`` upserts content rows, by batches of one multi-row statement
/// (``RowStatements``), first telling them when a stored row is about to be replaced, then
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
/// The store API writes its few records the same way, each a batch of one, leaving the triggers
/// to index each row (``Indexing/byTriggers``).
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
    /// Records written as new and as replacements.
    package private(set) var insertedCount = 0
    package private(set) var updatedCount = 0
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
    private var statements: RowStatements
    private var exists: Statement?
    private var idsAbove: Statement?
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
        statements = RowStatements(kind: kind, database: database, timestamp: self.timestamp)
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
        exists = try database.makeStatement(sql: "SELECT 1 FROM \(kind.tableName) WHERE id = ?1")
        idsAbove = try database.makeStatement(
            sql: "SELECT id FROM \(kind.tableName) WHERE id > ?1 ORDER BY id")
        addToWrittenList = try database.makeStatement(sql: BulkWriteRows.addToListSQL(of: kind))
        let copiedColumns = (kind.searchableFields + ["extra", "created_at", "updated_at"]).joined(
            separator: ", ")
        moveRecord = (
            try database.makeStatement(
                sql: """
                    INSERT INTO \(kind.tableName)(\(copiedColumns)) SELECT \(copiedColumns) FROM \(kind.tableName) WHERE id = ?1
                    """),
            try database.makeStatement(sql: "DELETE FROM \(kind.tableName) WHERE id = ?1")
        )
    }

    /// Inserts `record`, or replaces the stored record with the same id: a batch of one.
    package func write(_ record: Record) throws -> Outcome {
        var records = EncodedRecords()
        records.append(record, codedBy: indexing == .atFinish ? sortCodeMap : nil)
        let inserted = insertedCount
        try write(rows: 0..<1, of: records)
        return insertedCount > inserted ? .inserted : .updated
    }

    /// Inserts the records at `rows` of `records`, or replaces the stored records with their
    /// ids, counting them in ``insertedCount`` and ``updatedCount``.
    ///
    /// The rows are written by batches of one ``RowStatements/Shape`` (a multi-row statement
    /// each, ``RowStatements``), as if one by one: a batch ends before a row of another shape,
    /// before a row naming an id the batch names (whose lookup must see the batch written), and
    /// before a row naming an id this write gave (whose record moves to an id SQLite picks,
    /// which must not be one the batch names).
    package func write(rows: Range<Int>, of records: EncodedRecords) throws {
        precondition(exists != nil, "begin() must be called before write")
        var batch = rows.lowerBound..<rows.lowerBound
        var shape = RowStatements.Shape.withoutID
        for row in rows {
            let record = records.rows[row]
            let rowShape = RowStatements.Shape(of: record)
            if !batch.isEmpty, rowShape != shape || names(record.id, anIDOf: batch, of: records) {
                try write(batch, of: records, shape: shape)
                batch = row..<row
            }
            shape = rowShape
            if let id = record.id, assignedIDs.contains(id) {
                try moveAssignedRecord(awayFrom: id)
            }
            let outcome =
                indexing == .byTriggers
                ? try outcomeIndexedByTriggers(forRecordWithID: record.id)
                : try prepareIndex(forRecordWithID: record.id)
            switch outcome {
            case .inserted: insertedCount += 1
            case .updated: updatedCount += 1
            }
            if let id = record.id { highestID = max(highestID, id) }
            batch = batch.lowerBound..<row + 1
        }
        if !batch.isEmpty {
            try write(batch, of: records, shape: shape)
        }
    }

    /// Whether `id` is one that rows `batch` of `records` name, or one this write gave (the
    /// batch names no such id: its record would move to an id SQLite picks, which could be one
    /// of the batch's). An id above the highest seen is neither.
    private func names(_ id: Int64?, anIDOf batch: Range<Int>, of records: EncodedRecords) -> Bool {
        guard let id, id <= highestID else { return false }
        return assignedIDs.contains(id) || records.rows[batch].contains { $0.id == id }
    }

    /// Writes rows `batch` of `records`, all of `shape`, by statements of up to
    /// ``RowStatements/maximumRows`` rows, and tells the row followers each row's id.
    private func write(
        _ batch: Range<Int>, of records: EncodedRecords, shape: RowStatements.Shape
    ) throws {
        var start = batch.lowerBound
        while start < batch.upperBound {
            let rows = start..<start + RowStatements.rows(ofStatementFor: batch.upperBound - start)
            let statement = try statements.statement(writing: rows, of: records, shape: shape)
            if shape == .withoutID {
                let highest = highestID
                try givingNoIDPastTheLargest(toRecordsWithout: rows.count) {
                    try statement.step()
                }
                statement.reset()
                try forEachID(givenTo: rows, above: highest) { id, row in
                    try noteAssignedID(id)
                    for follower in rowFollowers { follower.wrote(id, row: row, of: records) }
                }
            } else {
                try statement.step()
                statement.reset()
                for row in rows {
                    let id = records.rows[row].id!
                    for follower in rowFollowers { follower.wrote(id, row: row, of: records) }
                }
            }
            start = rows.upperBound
        }
    }

    /// Calls `body` with the id SQLite gave each of `rows`, just written without ids by one
    /// statement, `highest` being the highest id stored before it.
    ///
    /// The rows stored above `highest` are the statement's, and their ids increase in input
    /// order, each above every id given before (AUTOINCREMENT, https://sqlite.org/autoinc.html).
    /// When the last is `highest` plus their count, they are the ids in between, read from no
    /// table: SQLite gives one more than the largest ever given. Otherwise (the largest given
    /// was a deleted record's, above `highest`) they are read from the table. (`RETURNING id`,
    /// which SQLite runs as a trigger on each row, made an import of 100,000 people without ids
    /// cost 5.24 G instructions instead of 4.76 G.)
    private func forEachID(
        givenTo rows: Range<Int>, above highest: Int64, _ body: (Int64, Int) throws -> Void
    ) throws {
        let last = database.lastInsertedRowID
        if last - Int64(rows.count) == highest {
            for row in rows { try body(highest + 1 + Int64(row - rows.lowerBound), row) }
            return
        }
        guard let idsAbove else { return }
        var row = rows.lowerBound
        try idsAbove.forEachRow([highest]) { statement in
            try body(statement.int64(at: 0), row)
            row += 1
        }
        precondition(row == rows.upperBound, "the rows above the highest are the statement's")
    }

    /// Runs `insert`, which gives `count` records without an id one each; when every id up to
    /// the largest has been given (ids are never given twice since migration 16, so SQLite
    /// answers SQLITE_FULL) or too few are left for them, says so rather than that the disk is
    /// full. A failed statement stored nothing: `sqlite_sequence` holds what it held before.
    private func givingNoIDPastTheLargest(
        toRecordsWithout count: Int, _ insert: () throws -> Void
    ) throws {
        do {
            try insert()
        } catch let error as SQLiteError where error.isDiskFull {
            let given = try database.fetchInt(
                sql: "SELECT seq FROM sqlite_sequence WHERE name = ?1", arguments: [kind.tableName])
            let highest = max(given.map(Int64.init) ?? 0, highestID)
            guard highest > Int64.max - Int64(count) else { throw error }
            throw RecordStoreError.invalidRecord(
                kind: kind, position: nil,
                reason: "no id is left for a \(kind.singularNoun) without one: ids are never "
                    + "given twice, and the largest, \(Int64.max), has been given; give the "
                    + "record an id")
        }
    }

    /// Notes the id SQLite gave a row inserted without one: one more than the highest ever
    /// given (https://sqlite.org/autoinc.html).
    /// The row is indexed under the id it got, listed when it is not above the old highest.
    private func noteAssignedID(_ id: Int64) throws {
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
        try givingNoIDPastTheLargest(toRecordsWithout: 1) { try moveRecord.copy.execute([id]) }
        let movedTo = database.lastInsertedRowID
        try moveRecord.delete.execute([id])
        assignedIDs.remove(id)
        try noteAssignedID(movedTo)
        for follower in rowFollowers { follower.moved(from: id, to: movedTo) }
        onMove(id, movedTo)
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
        statements.finalizeAll()
        exists = nil
        idsAbove = nil
        addToWrittenList = nil
        moveRecord = nil
    }
}
