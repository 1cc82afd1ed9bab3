import FTSearchSQLite

// How each derived structure follows a bulk write of one kind's records (see
// ``DerivedBulkWrite``): the triggers it drops, and what it does instead.

extension IndexSync {
    func triggers(of kind: Kind) -> Triggers? {
        kind == self.kind ? Triggers(createSQL: createTriggersSQL, dropSQL: dropTriggersSQL) : nil
    }

    /// Takes each replaced row's old tokens out of the indexes as it is replaced, and indexes
    /// every written row with one statement per index at the end, with ``bulkSettings``: four
    /// times faster than a trigger per row.
    func bulkWrite(of kind: Kind, in database: Database) throws -> (any DerivedBulkWrite)? {
        kind == self.kind ? try BulkIndexing(sync: self, database: database) : nil
    }

    private final class BulkIndexing: DerivedBulkWrite {
        let sync: IndexSync
        let database: Database
        let unindex: [Statement]

        init(sync: IndexSync, database: Database) throws {
            self.sync = sync
            self.database = database
            self.unindex = try sync.unindexRowSQL.map { try database.makeStatement(sql: $0) }
        }

        func begin(replacingAll: Bool) throws {
            if replacingAll { try database.execute(sql: sync.deleteAllSQL) }
        }

        func willReplace(_ id: Int64) throws {
            for statement in unindex { try statement.execute([id]) }
        }

        func finish(_ write: BulkWriteRows) throws {
            try sync.withBulkSettings(in: database) {
                for sql in sync.indexSQL(of: write) {
                    try database.makeStatement(sql: sql).execute([write.highestIDBefore])
                }
            }
        }
    }
}

extension RowSizes {
    /// Writes again the blocks of the written rows from the index's `%_docsize`, after the
    /// index (before it in ``DerivedDataList``) indexed them. Its triggers are the index's.
    func bulkWrite(of kind: Kind, in database: Database) throws -> (any DerivedBulkWrite)? {
        kind == self.kind ? BulkSizes(sizes: self, database: database) : nil
    }

    private final class BulkSizes: DerivedBulkWrite {
        let sizes: RowSizes
        let database: Database

        init(sizes: RowSizes, database: Database) {
            self.sizes = sizes
            self.database = database
        }

        func begin(replacingAll: Bool) throws {
            if replacingAll { try database.execute(sql: sizes.blocks.deleteAllSQL) }
        }

        func finish(_ write: BulkWriteRows) throws {
            try sizes.rebuild(write, in: database)
        }
    }
}

extension SortCodes.Tables {
    func triggers(of kind: Kind) -> Triggers? {
        let codes = SortCodes(of: kind)
        return Triggers(createSQL: codes.createTriggersSQL, dropSQL: codes.dropTriggersSQL)
    }

    /// Keeps the codes the records came with (``EncodedRecords`` codes them as it reads them,
    /// with the map the import read) and writes them by blocks at the end. Whether the map
    /// and every code are made again is the import's to say, once for all its kinds
    /// (``SortCodes/finishImport(inserted:replacingAll:codedWith:mapMinimum:in:)``).
    func bulkWrite(of kind: Kind, in database: Database) throws -> (any DerivedBulkWrite)? {
        BulkCodes(codes: SortCodes(of: kind), database: database)
    }

    private final class BulkCodes: DerivedBulkWrite {
        let codes: SortCodes
        let database: Database
        // Set once a row, by the writer's one thread: `@exclusivity(unchecked)` spares the
        // dynamic access check a class property reached through a protocol pays each time.
        @exclusivity(unchecked) var pending: SortCodes.Pending

        init(codes: SortCodes, database: Database) {
            self.codes = codes
            self.database = database
            self.pending = SortCodes.Pending(blocks: codes.blocks)
        }

        var followsRows: Bool { true }

        func begin(replacingAll: Bool) throws {
            if replacingAll { try database.execute(sql: codes.blocks.deleteAllSQL) }
        }

        func wrote(_ id: Int64, row: Int, of records: EncodedRecords) {
            pending.set(records.rows[row].sortCode, ofRow: id)
        }

        func moved(from: Int64, to: Int64) {
            if let code = pending.code(ofRow: from) { pending.set(code, ofRow: to) }
        }

        func finish(_ write: BulkWriteRows) throws {
            try pending.write(in: database)
        }
    }
}

/// What notes writes rather than deriving values from them — the change log
/// (``SearchChanges``), the record versions (``FieldVersions``): its triggers note each
/// single-record write, and a bulk write is noted once, as it begins (any record of the kind
/// may have changed).
protocol WriteNoting {
    static func createTriggersSQL(of kind: Kind) -> String
    static func dropTriggersSQL(of kind: Kind) -> String
    static func noteBulkWrite(of kind: Kind, in database: Database) throws
}

extension SearchChanges: WriteNoting {}
extension FieldVersions: WriteNoting {}

/// The notes of writes as derived data: nothing to check (a note cannot disagree with the
/// records), and a rebuild notes a bulk write of every kind, so that nothing kept from before
/// it outlives it (kept rankings are ranked again, fields held in memory read again).
struct WriteNotes<Notes: WriteNoting>: DerivedData {
    let tables: [String]

    func triggers(of kind: Kind) -> Triggers? {
        Triggers(
            createSQL: Notes.createTriggersSQL(of: kind), dropSQL: Notes.dropTriggersSQL(of: kind))
    }

    func bulkWrite(of kind: Kind, in database: Database) throws -> (any DerivedBulkWrite)? {
        NotingBulkWrite { try Notes.noteBulkWrite(of: kind, in: database) }
    }

    func problems(in database: Database, scratch: Database) throws -> [DatabaseProblem] {
        []
    }

    func rebuild(in database: Database) throws {
        for kind in Kind.allCases { try Notes.noteBulkWrite(of: kind, in: database) }
    }
}

/// A structure that notes, as a bulk write begins, that the kind's records changed.
private final class NotingBulkWrite: DerivedBulkWrite {
    let note: () throws -> Void

    init(note: @escaping () throws -> Void) {
        self.note = note
    }

    func begin(replacingAll: Bool) throws {
        try note()
    }

    func finish(_ write: BulkWriteRows) throws {}
}
