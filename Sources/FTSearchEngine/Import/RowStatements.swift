import FTSearchSQLite

/// The statements ``BulkWriter`` writes its rows with: one multi-row `INSERT` per batch of rows
/// of one ``Shape``, so that the table's `AUTOINCREMENT` bookkeeping (SQLite reads and writes
/// `sqlite_sequence` around every insert statement, https://sqlite.org/autoinc.html) and each
/// statement's own overhead are paid once a batch rather than once a row.
///
/// A batch of `n` rows is written by statements of powers of two rows, the largest first (100
/// rows: 64, 32 and 4), each prepared when first needed and kept: a write prepares at most one
/// statement per shape and power of two.
struct RowStatements {
    /// How a row is written.
    enum Shape: Hashable {
        /// Under the id SQLite gives it.
        case withoutID
        /// Under the id it names, replacing the stored record of that id if there is one, whose
        /// creation time is kept unless the record gives its own. (The upsert's `DO UPDATE`
        /// sees a row only as `excluded`, whose creation time is the record's or the write's:
        /// whether the record gave one is said by the statement.)
        case withID(keepsCreationTime: Bool)

        init(of row: EncodedRecords.Row) {
            self =
                row.id == nil ? .withoutID : .withID(keepsCreationTime: row.createdAt == nil)
        }
    }

    /// The most rows one statement writes: a power of two.
    ///
    /// An import of 100,000 people with ids into a new database (`callgrind`, release):
    /// 5.62 G instructions at 1 row a statement, 5.06 G at 16, 5.01 G at 32, 4.98 G at 64,
    /// 4.97 G at 128.
    static let maximumRows = 64

    let kind: Kind
    let database: Database
    /// The write's time, for the records without timestamps of their own.
    let timestamp: Int64
    private var prepared: [Key: Statement] = [:]

    private struct Key: Hashable {
        let shape: Shape
        let rows: Int
    }

    init(kind: Kind, database: Database, timestamp: Int64) {
        self.kind = kind
        self.database = database
        self.timestamp = timestamp
    }

    /// How many rows the next statement of a batch of `count` rows writes: the largest power of
    /// two not above `count` and ``maximumRows``.
    static func rows(ofStatementFor count: Int) -> Int {
        precondition(count > 0)
        return min(maximumRows, 1 << (Int.bitWidth - 1 - count.leadingZeroBitCount))
    }

    /// The statement writing `rows.count` rows (one of ``rows(ofStatementFor:)``) of `shape`,
    /// with the values of `rows` of `records` bound.
    mutating func statement(
        writing rows: Range<Int>, of records: EncodedRecords, shape: Shape
    ) throws -> Statement {
        let key = Key(shape: shape, rows: rows.count)
        let statement: Statement
        if let found = prepared[key] {
            statement = found
        } else {
            statement = try database.makeStatement(sql: sql(writing: rows.count, shape: shape))
            try statement.bind(timestamp, at: 1)
            prepared[key] = statement
        }
        let texts = kind.searchableFields.count + 1
        var parameter: Int32 = 2
        for row in rows {
            let record = records.rows[row]
            if shape != .withoutID {
                try statement.bind(record.id, at: parameter)
                parameter += 1
            }
            // The searchable values, then the extra fields' JSON.
            for text in 0..<texts {
                try records.withText(text, ofRow: row) {
                    try statement.bind(utf8: $0, at: parameter)
                }
                parameter += 1
            }
            try statement.bind(record.createdAt, at: parameter)
            try statement.bind(record.updatedAt, at: parameter + 1)
            parameter += 2
        }
        return statement
    }

    /// Finalizes the statements prepared.
    mutating func finalizeAll() {
        prepared = [:]
    }

    /// `INSERT INTO people(id, first_name, …) VALUES (?2, ?3, …), (…) ON CONFLICT …`: `?1` is
    /// the write's time, then each row's id (unless `withoutID`), texts and own timestamps.
    private func sql(writing rows: Int, shape: Shape) -> String {
        let columns = kind.searchableFields + ["extra"]
        let withID = shape != .withoutID
        let perRow = (withID ? 1 : 0) + columns.count + 2
        let values = (0..<rows).map { row in
            let first = 2 + row * perRow
            let texts = (0..<perRow - 2).map { "?\(first + $0)" }
            let (created, updated) = (first + perRow - 2, first + perRow - 1)
            return
                "(\(texts.joined(separator: ", ")), coalesce(?\(created), ?1), coalesce(?\(updated), ?1))"
        }
        let insert = """
            INSERT INTO \(kind.tableName)(\(withID ? "id, " : "")\(columns.joined(separator: ", ")), created_at, updated_at)
            VALUES \(values.joined(separator: ", "))
            """
        switch shape {
        case .withoutID:
            return insert
        case .withID(let keepsCreationTime):
            let assigned = columns + ["updated_at"] + (keepsCreationTime ? [] : ["created_at"])
            return insert
                + " ON CONFLICT(id) DO UPDATE SET "
                + assigned.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        }
    }
}
