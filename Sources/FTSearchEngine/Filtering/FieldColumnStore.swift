import FTSearchSQLite

/// The columns of ``FieldTable`` kept on disk (`field_columns`, schema 19), one blob a field
/// of a kind (see ``FieldColumn/encoded(records:)``): what spares a process that filters,
/// sorts or counts facets once, such as `ftsearch query --filter`, reading every record for
/// each field it names (seconds at a million records; the blob, tens of milliseconds).
///
/// A column is kept by the first search that reads it from the records, after its read
/// transaction and only when the write lock is free at once (a cache entry never holds up a
/// search, see ``Database/writeWithoutWaiting(_:)``), and only when the records are still as
/// it read them. It is keyed by the records' ``FieldVersions`` count, so a column of records
/// that have changed since is never read (and is replaced by the next one kept). Fields nearly
/// every record holds a value of its own (an email address) take more than
/// ``largestBytesPerRecord`` and are not kept: reading them from the records costs about what
/// reading such a blob would.
enum FieldColumnStore {
    /// A column read from the records, to keep.
    struct Entry {
        var kind: Kind
        var field: String
        var version: Int64
        var records: RowSet
        var column: FieldColumn
    }

    /// The most a kept column takes, in bytes a record.
    static let largestBytesPerRecord = 8

    /// `field`'s column of `kind` and the record set it was read with, as kept for the
    /// records' `version`; nil when none is kept for that version.
    static func column(of field: String, kind: Kind, version: Int64, in database: Database)
        throws -> (column: FieldColumn, records: RowSet)?
    {
        let blob = try database.cachedStatement(
            sql: "SELECT data FROM field_columns WHERE kind = ?1 AND field = ?2 AND version = ?3"
        ).firstRow([kind.rawValue, field, version]) { $0.bytes(at: 0) }
        return blob.flatMap { FieldColumn.decoded(from: $0) }
    }

    /// Keeps `entries` (those small enough), each only if its kind's records are still at the
    /// version it was read at; outside any transaction, without waiting for the write lock.
    static func keep(_ entries: [Entry], in database: Database) {
        let blobs = entries.compactMap { entry -> (Entry, [UInt8])? in
            let bytes = entry.column.encoded(records: entry.records)
            let limit = max(entry.records.count, 1024) * largestBytesPerRecord
            return bytes.count <= limit ? (entry, bytes) : nil
        }
        guard !blobs.isEmpty else { return }
        database.writeWithoutWaiting {
            for (entry, bytes) in blobs {
                try database.cachedStatement(
                    sql: """
                        INSERT OR REPLACE INTO field_columns(kind, field, version, data)
                        SELECT ?1, ?2, ?3, ?4
                        WHERE coalesce((SELECT version FROM record_versions WHERE kind = ?1), 0) = ?3
                        """
                ).execute([entry.kind.rawValue, entry.field, entry.version, bytes])
            }
        }
    }

    /// The kept columns as derived data: a cache keyed by the records' version, so it never
    /// disagrees with them; made again by forgetting it, and its columns of records that have
    /// changed since forgotten when the indexes are merged.
    struct Table: DerivedData {
        var tables: [String] { ["field_columns"] }

        func problems(in database: Database, scratch: Database) throws -> [DatabaseProblem] {
            []
        }

        func rebuild(in database: Database) throws {
            try database.execute(sql: "DELETE FROM field_columns")
        }

        func optimize(in database: Database) throws {
            try database.execute(
                sql: """
                    DELETE FROM field_columns WHERE version IS NOT coalesce(
                        (SELECT version FROM record_versions WHERE kind = field_columns.kind), 0)
                    """)
        }
    }
}
