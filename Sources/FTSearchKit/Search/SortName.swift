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
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }
}
