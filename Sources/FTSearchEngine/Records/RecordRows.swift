import FTSearchFormats
package import FTSearchSQLite

/// Reads stored records of one kind, whole (extras and timestamps included), in id order: the
/// reading half of the store API and of ``SearchIndex/export(_:as:to:)``.
package struct RecordRows {
    let kind: Kind

    package init(kind: Kind) {
        self.kind = kind
    }

    /// `SELECT` of every column, with `WHERE id = ?1` when `byID`, `WHERE id > ?1` when
    /// `afterID`, in id order, `LIMIT ?2` (or `?1` when there is no condition).
    package func selectSQL(byID: Bool = false, afterID: Bool = false) -> String {
        let columns = (["id"] + kind.searchableFields + ["extra", "created_at", "updated_at"])
            .joined(separator: ", ")
        let condition = byID ? " WHERE id = ?1" : afterID ? " WHERE id > ?1" : ""
        let limit = byID || afterID ? "?2" : "?1"
        return "SELECT \(columns) FROM \(kind.tableName)\(condition) ORDER BY id LIMIT \(limit)"
    }

    /// The record in the current row of a statement made from ``selectSQL(byID:afterID:)``.
    package func record(from row: Statement) -> Record {
        var parser = JSONParser()
        return record(from: row, using: &parser)
    }

    /// The record in the current row of a statement made from ``selectSQL(byID:afterID:)``,
    /// its extra fields parsed by `parser` (see ``ExtraFields/decode(column:of:using:)``).
    package func record(from row: Statement, using parser: inout JSONParser) -> Record {
        let fieldCount = Int32(kind.searchableFields.count)
        return Record(
            kind: kind, id: row.int64(at: 0),
            searchableValues: (1...fieldCount).map { row.text(at: $0) ?? "" },
            extraFields: ExtraFields.decode(column: fieldCount + 1, of: row, using: &parser),
            createdAt: StoredTime.time(at: fieldCount + 2, of: row),
            updatedAt: StoredTime.time(at: fieldCount + 3, of: row))
    }

    /// The record with this id, or nil when there is none (read as a page of hits reads its
    /// records, ``Readers``).
    package func record(withID id: Int64, in database: Database) throws -> Record? {
        var readers = Readers(database: database)
        return try readers.record(of: kind, id: id)
    }

    /// Reads records of any kind by id, each kind's statement prepared once and bound with the
    /// id alone, and every record's extra fields parsed by one parser: how every record is read
    /// by id, and what a page of hits reads its records with, without building the SQL, looking
    /// the statement up again, boxing its arguments or starting a parser for every hit.
    struct Readers {
        let database: Database
        private var statements: [Kind: Statement] = [:]
        private var parser = JSONParser()
        /// Each kind's ``RecordRows/selectSQL(byID:afterID:)`` by id, built once.
        private static let selectByID = Dictionary(
            uniqueKeysWithValues: Kind.allCases.map {
                ($0, RecordRows(kind: $0).selectSQL(byID: true))
            })

        init(database: Database) {
            self.database = database
        }

        /// The record of `kind` with this id, or nil when there is none.
        mutating func record(of kind: Kind, id: Int64) throws -> Record? {
            let rows = RecordRows(kind: kind)
            let statement: Statement
            if let prepared = statements[kind] {
                statement = prepared
            } else {
                statement = try database.cachedStatement(sql: Self.selectByID[kind]!)
                statements[kind] = statement
            }
            try statement.bind(id, at: 1)
            try statement.bind(1, at: 2)
            defer { statement.reset() }
            return try statement.step() ? rows.record(from: statement, using: &parser) : nil
        }
    }
}
