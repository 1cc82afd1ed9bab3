import FTSearchSQLite

/// The name records sort by where they rank equal, and when everything is listed: people by
/// last name then first name (`last_name || ' ' || first_name`), animals by name, compared as
/// SQLite's NOCASE collation compares text.
///
/// The one definition of it: the SQL of every plan uses ``sql(of:table:)``, and the fast
/// plans' comparator reads ``columns(of:)`` and compares with ``compare(_:_:)`` (after the
/// ``SortCodes``, which order as it does) — `SortNameTests` holds them equal.
package enum SortName {
    /// The columns of the sort name, in order; a space joins them.
    static func columns(of kind: Kind) -> [String] {
        switch kind {
        case .people: ["last_name", "first_name"]
        case .animals: ["name"]
        }
    }

    /// The sort name as an SQL expression over the columns of `table` (unqualified when nil).
    package static func sql(of kind: Kind, table: String? = nil) -> String {
        let prefix = table.map { $0 + "." } ?? ""
        return columns(of: kind).map { prefix + $0 }.joined(separator: " || ' ' || ")
    }

    /// SQLite's NOCASE collation (sqlite3StrNICmp, then length): ASCII letters fold to lower
    /// case, every other byte compares as is, and the comparison stops at a NUL byte. Negative
    /// when `left` sorts first.
    static func compare(_ left: [UInt8], _ right: [UInt8]) -> Int {
        left.withUnsafeBufferPointer { left in
            right.withUnsafeBufferPointer { right in compare(left, right) }
        }
    }

    /// ``compare(_:_:)-([UInt8],[UInt8])`` of bytes in place.
    static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>)
        -> Int
    {
        var index = 0
        let count = min(left.count, right.count)
        while index < count {
            let a = left[index]
            guard a != 0 else { break }
            let b = right[index]
            let difference = Int(lowercased(a)) - Int(lowercased(b))
            if difference != 0 { return difference }
            index += 1
        }
        if index < count {  // stopped at a NUL in `left`: sqlite3StrNICmp compares it with `right`
            let difference = Int(lowercased(left[index])) - Int(lowercased(right[index]))
            if difference != 0 { return difference }
        }
        return left.count - right.count
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }
}

/// Reads records' sort keys by id with blob handles (one per column, moved from row to row):
/// the bytes of their ``SortName`` columns, joined by a space, as `SortName.sql` joins them.
struct SortKeys {
    let database: Database
    private var readers: [Kind: [BlobReader]] = [:]

    init(database: Database) {
        self.database = database
    }

    /// The sort key of `kind`'s record `rowid`; nil when it cannot be read (no such record, or
    /// a column that is not text).
    mutating func key(of kind: Kind, rowid: Int64) -> [UInt8]? {
        var key: [UInt8] = []
        return appendKey(of: kind, rowid: rowid, to: &key) ? key : nil
    }

    /// Appends the sort key of `kind`'s record `rowid` to `bytes`; false when it cannot be
    /// read (no such record, or a column that is not text).
    mutating func appendKey(of kind: Kind, rowid: Int64, to bytes: inout [UInt8]) -> Bool {
        for (index, column) in columnReaders(of: kind).enumerated() {
            if index > 0 { bytes.append(0x20) }
            guard column.append(row: rowid, to: &bytes) else { return false }
        }
        return true
    }

    private mutating func columnReaders(of kind: Kind) -> [BlobReader] {
        if let columns = readers[kind] { return columns }
        let columns = SortName.columns(of: kind).map {
            BlobReader(database: database, table: kind.tableName, column: $0)
        }
        readers[kind] = columns
        return columns
    }

    /// Whether `a` comes before `b` among results of one (tier, score): by sort key (NOCASE),
    /// then kind, then id, as the reference plan's ORDER BY puts them.
    static func precedes(
        _ a: (key: [UInt8], kind: Kind, rowid: Int64), _ b: (key: [UInt8], kind: Kind, rowid: Int64)
    ) -> Bool {
        let order = SortName.compare(a.key, b.key)
        if order != 0 { return order < 0 }
        if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
        return a.rowid < b.rowid
    }
}
