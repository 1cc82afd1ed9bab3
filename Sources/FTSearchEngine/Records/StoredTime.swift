import FTSearchSQLite

/// How a record's `created_at` and `updated_at` are stored: integer milliseconds since
/// 1970-01-01T00:00:00Z (see ``Timestamp``), which SQLite keeps in 6 bytes where the ISO 8601
/// text of schema versions 1 to 4 took 24. Output still shows the ISO 8601 text.
///
/// A time that the upgrade to integers could not read (text written into the table by another
/// program) is left as it was, and read as before: as ISO 8601 text, or as no time at all.
enum StoredTime {
    /// The value to store for `time`.
    static func value(of time: Timestamp) -> Int64 { time.millisecondsSinceEpoch }

    /// The time stored in the 0-based column `index` of the current row of `row`, if any.
    static func time(at index: Int32, of row: Statement) -> Timestamp? {
        switch row.value(at: index) {
        case .integer(let milliseconds): Timestamp(millisecondsSinceEpoch: milliseconds)
        case .text(let text): Timestamp(iso8601: text)
        default: nil
        }
    }
}
