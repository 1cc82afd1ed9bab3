import FTSearchSQLite

/// The name records sort by where they rank equal, and when everything is listed: people by
/// last name then first name (`last_name || ' ' || first_name`), animals by name, compared as
/// SQLite's NOCASE collation compares text.
///
/// The one definition of it: the SQL of every plan uses ``sql(of:table:)``, the fast plan's
/// comparator reads ``columns(of:)`` and compares with ``compare(_:_:)``, and the indexes that
/// serve listing (`people_by_sort_name`, `animals_by_name`, frozen in the migrations) are on
/// the same expression — `SortNameTests` holds them equal.
enum SortName {
    /// The columns of the sort name, in order; a space joins them.
    static func columns(of kind: Kind) -> [String] {
        switch kind {
        case .people: ["last_name", "first_name"]
        case .animals: ["name"]
        }
    }

    /// The sort name as an SQL expression over the columns of `table` (unqualified when nil).
    static func sql(of kind: Kind, table: String? = nil) -> String {
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
    private var readers: [Kind: [ColumnReader]] = [:]

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
    /// read.
    mutating func appendKey(of kind: Kind, rowid: Int64, to bytes: inout [UInt8]) -> Bool {
        switch appendKey(of: kind, rowid: rowid, to: &bytes, unlessAfter: nil) {
        case .key: true
        case .sortsAfter, .unreadable: false
        }
    }

    /// What ``appendKey(of:rowid:to:unlessAfter:)`` found.
    enum Lookup {
        /// The whole key was appended.
        case key
        /// The key sorts after the limit (only its first column was read, and appended).
        case sortsAfter
        /// No such record, or a column that is not text.
        case unreadable
    }

    /// Appends the sort key of `kind`'s record `rowid` to `bytes`, or only that it sorts
    /// after `limit`: the first column and the space after it begin the key, and a key sorts at
    /// or after its beginning, so when that beginning already sorts after `limit` the other
    /// columns are not read.
    private mutating func appendKey(
        of kind: Kind, rowid: Int64, to bytes: inout [UInt8], unlessAfter limit: [UInt8]?
    ) -> Lookup {
        let columns = columnReaders(of: kind)
        let start = bytes.count
        for (index, column) in columns.enumerated() {
            if index > 0 {
                bytes.append(0x20)
                // With a NUL byte too: SortName.compare stops at it in both.
                if index == 1, let limit,
                    bytes.withUnsafeBufferPointer({ key in
                        limit.withUnsafeBufferPointer { limit in
                            SortName.compare(UnsafeBufferPointer(rebasing: key[start...]), limit)
                        }
                    }) > 0
                {
                    return .sortsAfter
                }
            }
            guard column.append(row: rowid, to: &bytes) else { return .unreadable }
        }
        return .key
    }

    /// Appends the beginning of the sort key of `kind`'s record `rowid` to `bytes`: its first
    /// column, and the space that joins the next when there is one; false when it cannot be
    /// read.
    mutating func appendBeginning(of kind: Kind, rowid: Int64, to bytes: inout [UInt8]) -> Bool {
        let columns = columnReaders(of: kind)
        guard columns[0].append(row: rowid, to: &bytes) else { return false }
        if columns.count > 1 { bytes.append(0x20) }
        return true
    }

    private mutating func columnReaders(of kind: Kind) -> [ColumnReader] {
        if let columns = readers[kind] { return columns }
        let columns = SortName.columns(of: kind).map {
            ColumnReader(database: database, table: kind.tableName, column: $0)
        }
        readers[kind] = columns
        return columns
    }

    /// The first `count` of `rows` (of one kind or several), in the order of
    /// ``precedes(_:_:)``, with their keys; nil when a key cannot be read. Every row's first
    /// column is read, its others only while the row can still be among the first `count`:
    /// a big group of equal scores costs about one blob read a row, and no sort of it. Each
    /// row picked is put in place in a sorted array, so this is for a few rows of many (see
    /// ``picksOut(_:of:)``); ``SortKeyTable`` orders the others. `rows` may come in any order;
    /// in rowid order (as ``RankedPage`` reads them) each blob move lands near the last.
    mutating func first(_ count: Int, of rows: [(kind: Kind, rowid: Int64)])
        -> [(key: [UInt8], kind: Kind, rowid: Int64)]?
    {
        var picked: [(key: [UInt8], kind: Kind, rowid: Int64)] = []
        guard count > 0 else { return picked }
        picked.reserveCapacity(count + 1)
        for row in rows {
            let limit = picked.count == count ? picked.last?.key : nil
            var key: [UInt8] = []
            switch appendKey(of: row.kind, rowid: row.rowid, to: &key, unlessAfter: limit) {
            case .unreadable: return nil
            case .sortsAfter: continue
            case .key:
                let entry = (key: key, kind: row.kind, rowid: row.rowid)
                if picked.count == count, let last = picked.last, !Self.precedes(entry, last) {
                    continue
                }
                // The insertion point: the first entry that `entry` precedes.
                var low = 0
                var high = picked.count
                while low < high {
                    let middle = (low + high) / 2
                    if Self.precedes(entry, picked[middle]) {
                        high = middle
                    } else {
                        low = middle + 1
                    }
                }
                picked.insert(entry, at: low)
                if picked.count > count { picked.removeLast() }
            }
        }
        return picked
    }

    /// The first `count` of `rowids` (records of `kind`, in any order) in the order of their
    /// kind's sort-name index, which within a kind is ``precedes(_:_:)``'s: the index walked
    /// from its start (``QueryEngine/listingSQL(of:)``), each entry's id looked up among
    /// `rowids`, no record read. Nil when they are not all met within its first `budget`
    /// entries, or their ids span more than 2^26.
    func firstInIndex(_ count: Int, of rowids: [Int64], kind: Kind, budget: Int) throws
        -> [Int64]?
    {
        guard let lowest = rowids.min(), let highest = rowids.max() else { return [] }
        let (span, overflow) = highest.subtractingReportingOverflow(lowest)
        guard !overflow, span < 1 << 26 else { return nil }
        // One bit per id from the lowest to the highest.
        var members = [UInt64](repeating: 0, count: Int(span >> 6) + 1)
        for rowid in rowids {
            let bit = Int(rowid - lowest)
            members[bit >> 6] |= 1 << (bit & 63)
        }
        let wanted = min(count, rowids.count)
        var found: [Int64] = []
        found.reserveCapacity(wanted)
        let walk = try database.cachedStatement(sql: QueryEngine.listingSQL(of: kind))
        try walk.bind([budget, 0])
        defer { walk.reset() }
        while found.count < wanted, try walk.step() {
            let id = walk.int64(at: 0)
            guard id >= lowest, id <= highest else { continue }
            let bit = Int(id - lowest)
            if members[bit >> 6] & (1 << (bit & 63)) != 0 { found.append(id) }
        }
        return found.count == wanted ? found : nil
    }

    /// The first `count` of two lists each in the order of ``precedes(_:_:)``, in that order.
    static func merged(
        _ a: [(key: [UInt8], kind: Kind, rowid: Int64)],
        _ b: [(key: [UInt8], kind: Kind, rowid: Int64)], first count: Int
    ) -> [(key: [UInt8], kind: Kind, rowid: Int64)] {
        var merged: [(key: [UInt8], kind: Kind, rowid: Int64)] = []
        merged.reserveCapacity(min(count, a.count + b.count))
        var (i, j) = (0, 0)
        while merged.count < count, i < a.count || j < b.count {
            if j == b.count || (i < a.count && precedes(a[i], b[j])) {
                merged.append(a[i])
                i += 1
            } else {
                merged.append(b[j])
                j += 1
            }
        }
        return merged
    }

    /// Whether the first `count` of `rows` rows are few enough to pick out one by one (see
    /// ``first(_:of:)``) rather than to read every key and select them: at most a thousand,
    /// and fewer than a quarter of the rows.
    static func picksOut(_ count: Int, of rows: Int) -> Bool {
        count > 0 && count <= 1_000 && count * 4 < rows
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
