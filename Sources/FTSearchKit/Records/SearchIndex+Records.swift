import FTSearchSQLite

/// Managing records one at a time: the store behind `ftsearch add`, `update`, `delete` and
/// `show`.
///
/// ```swift
/// let ann = try index.insert(Person(firstName: "Ann", lastName: "Lee", company: "Acme"))
/// try index.update(Person.self, id: ann.id!) { $0.company = "Initech" }
/// try index.find(Person.self, id: ann.id!)?.company  // "Initech"
/// try index.findAll(Person.self, after: nil, limit: 50)  // the first 50, by id
/// try index.count(Person.self)                           // 1
/// try index.delete(Person.self, ids: [ann.id!])
/// ```
///
/// Inserts and updates are written by the import's own writer and statement (``BulkWriter``),
/// and the index triggers (``IndexSync``) index every row inserted, updated or deleted, each
/// call in one transaction, so the full-text index always matches the records: a search finds a record as soon as the call returns. Records are
/// checked as an import checks them, and every refusal is a ``RecordStoreError`` with nothing
/// stored.
extension SearchIndex {
    /// Stores a new record and returns it with its id and timestamps.
    ///
    /// The store chooses the id unless the model gives one; `createdAt` and `updatedAt` are the
    /// index's clock unless the model gives them (as an import keeps those of its input).
    ///
    /// - Throws: ``RecordStoreError/invalidRecord(kind:position:reason:)`` for a record an
    ///   import would refuse; ``RecordStoreError/idInUse(kind:id:)`` when the id is taken.
    @discardableResult
    public func insert<Model: RecordModel>(_ model: Model) throws -> Model {
        try insert([model], reportingPositions: false)[0]
    }

    /// Stores new records, all in one transaction (all or none), and returns them with their ids
    /// and timestamps, in order.
    ///
    /// - Throws: As ``insert(_:)-(Model)``, with the position of the first refused record.
    @discardableResult
    public func insert<Model: RecordModel>(_ models: [Model]) throws -> [Model] {
        try insert(models, reportingPositions: true)
    }

    private func insert<Model: RecordModel>(_ models: [Model], reportingPositions: Bool) throws
        -> [Model]
    {
        try requireWriteAccess(for: "add records")
        let now = clock()
        return try database.inTransactionRetryingAfterSchemaChange(.immediate) {
            let writer = try BulkWriter(
                kind: Model.kind, database: database, timestamp: now, indexing: .byTriggers)
            try writer.begin(replacingAll: false)
            var stored: [Model] = []
            writer.onMove = { from, to in
                if let position = stored.firstIndex(where: { $0.id == from }) {
                    stored[position].id = to
                }
            }
            for (position, model) in models.enumerated() {
                let record = try validated(
                    model.record, position: reportingPositions ? position : nil)
                guard try writer.write(record) == .inserted else {
                    throw RecordStoreError.idInUse(kind: Model.kind, id: record.id ?? 0)
                }
                var model = model
                model.id = record.id ?? database.lastInsertedRowID
                model.createdAt = model.createdAt ?? now
                model.updatedAt = model.updatedAt ?? now
                stored.append(model)
            }
            try writer.finish()
            return stored
        }
    }

    /// Changes the record `id` with `change` and returns it as stored.
    ///
    /// Only what `change` changes is written; `createdAt` stays as it was and `updatedAt` becomes
    /// the index's clock, whatever `change` does to them (and to the id). When another process
    /// changes the schema just as the update begins (an import's triggers), the update starts
    /// again, `change` with it, on the record read again.
    ///
    /// ```swift
    /// try index.update(Animal.self, id: 7) { lion in
    ///     lion.name = "Simba"
    ///     lion[extra: "age"] = .number("4")
    /// }
    /// ```
    ///
    /// - Throws: ``RecordStoreError/unknownIDs(kind:ids:)`` when there is no such record;
    ///   ``RecordStoreError/invalidRecord(kind:position:reason:)`` when the changed record is
    ///   not valid; any error `change` throws. Nothing is changed then.
    @discardableResult
    public func update<Model: RecordModel>(
        _ type: Model.Type, id: Int64, _ change: (inout Model) throws -> Void
    ) throws -> Model {
        try requireWriteAccess(for: "update a record")
        let now = clock()
        return try database.inTransactionRetryingAfterSchemaChange(.immediate) {
            guard let stored = try find(Model.self, id: id) else {
                throw RecordStoreError.unknownIDs(kind: Model.kind, ids: [id])
            }
            var model = stored
            try change(&model)
            model.id = id
            model.createdAt = nil  // the stored time is kept
            model.updatedAt = nil  // the writer's time is taken
            let record = try validated(model.record, position: nil)
            let writer = try BulkWriter(
                kind: Model.kind, database: database, timestamp: now, indexing: .byTriggers)
            try writer.begin(replacingAll: false)
            _ = try writer.write(record)
            try writer.finish()
            model.createdAt = stored.createdAt
            model.updatedAt = now
            return model
        }
    }

    /// Replaces the stored record with `model`'s id by `model`: ``update(_:id:_:)`` with every
    /// field given.
    ///
    /// - Precondition: `model` has an id.
    @discardableResult
    public func update<Model: RecordModel>(_ model: Model) throws -> Model {
        guard let id = model.id else { preconditionFailure("only a stored record can be updated") }
        return try update(Model.self, id: id) { $0 = model }
    }

    /// Deletes the records with these ids, all in one transaction.
    ///
    /// - Returns: How many records were deleted (repeated ids count once).
    /// - Throws: ``RecordStoreError/unknownIDs(kind:ids:)`` listing every id that no record has;
    ///   nothing is deleted then.
    @discardableResult
    public func delete<Model: RecordModel>(_ type: Model.Type, ids: [Int64]) throws -> Int {
        try requireWriteAccess(for: "delete records")
        var seen = Set<Int64>()
        let ids = ids.filter { seen.insert($0).inserted }
        return try database.inTransactionRetryingAfterSchemaChange(.immediate) {
            let delete = try database.cachedStatement(
                sql: "DELETE FROM \(Model.kind.tableName) WHERE id = ?1")
            var unknown: [Int64] = []
            for id in ids {
                try delete.execute([id])
                if database.changesCount == 0 { unknown.append(id) }
            }
            guard unknown.isEmpty else {
                throw RecordStoreError.unknownIDs(kind: Model.kind, ids: unknown)
            }
            return ids.count
        }
    }

    /// The record with this id, or `nil` when there is none.
    public func find<Model: RecordModel>(_ type: Model.Type, id: Int64) throws -> Model? {
        try RecordRows(kind: Model.kind).record(withID: id, in: database).map { Model(fields: $0) }
    }

    /// A page of records in id order: those with an id above `after` (all when `nil`), at most
    /// `limit` of them (all when `nil`).
    ///
    /// ```swift
    /// var page = try index.findAll(Person.self, limit: 100)
    /// while !page.isEmpty {
    ///     page = try index.findAll(Person.self, after: page.last?.id, limit: 100)
    /// }
    /// ```
    public func findAll<Model: RecordModel>(
        _ type: Model.Type, after: Int64? = nil, limit: Int? = nil
    ) throws -> [Model] {
        let rows = RecordRows(kind: Model.kind)
        var models: [Model] = []
        let limit = limit ?? -1
        let statement = try database.cachedStatement(sql: rows.selectSQL(afterID: after != nil))
        let arguments: StatementArguments = after.map { [$0, limit] } ?? [limit]
        try statement.forEachRow(arguments) { models.append(Model(fields: rows.record(from: $0))) }
        return models
    }

    /// The number of records of the model's kind.
    public func count<Model: RecordModel>(_ type: Model.Type) throws -> Int {
        try Model.kind.recordCount(in: database)
    }

    private func validated(_ record: Record, position: Int?) throws -> Record {
        do {
            try FieldMapping.validate(record)
        } catch {
            throw RecordStoreError.invalidRecord(
                kind: record.kind, position: position, reason: error.reason)
        }
        return record
    }
}
