/// One distinct value of a field: text folded as search folds it, or a number.
struct FieldTerm: Sendable, Equatable {
    /// The folded text (a number's text as written, a time's ISO text).
    var folded: String
    /// The value as the first record holding it writes it.
    var display: String
    /// The number, for numbers and times (milliseconds since 1970).
    var number: Double?

    /// Whether it sorts before `other`: numbers first by value, then text by folded form.
    func precedes(_ other: FieldTerm) -> Bool {
        switch (number, other.number) {
        case (let mine?, let theirs?): mine < theirs
        case (.some, nil): true
        case (nil, .some): false
        case (nil, nil): folded < other.folded
        }
    }
}

/// The values of one field for every record of a kind, by rowid: whether the record has the
/// field, whether it is null or empty, and the codes of its values (an array's distinct
/// elements; ``terms`` by code).
struct FieldColumn: Sendable {
    /// Per rowid: ``present``, ``null``, ``empty`` bits.
    var flags: [UInt8]
    /// Per rowid: where its codes start in ``codes``; one more entry at the end.
    var starts: [Int32]
    var codes: [Int32]
    var terms: [FieldTerm]
    /// Each term's position in ascending sort order (see ``FieldTerm/precedes(_:)``), by code.
    var ranks: [Int32]
    /// Whether the field is a time (`created_at`, `updated_at`): text values compared with it
    /// are read as ISO-8601 times.
    var isTime = false

    static let present: UInt8 = 1
    static let null: UInt8 = 2
    static let empty: UInt8 = 4

    /// The codes of `rowid`'s values.
    @inline(__always)
    func codes(of rowid: Int) -> ArraySlice<Int32> {
        guard rowid + 1 < starts.count else { return [] }
        return codes[Int(starts[rowid])..<Int(starts[rowid + 1])]
    }

    /// The rows (below `capacity`) with one of the values `selected` marks (by code).
    func rows(withAnyOf selected: [Bool], capacity: Int) -> RowSet {
        var result = RowSet(capacity: capacity)
        guard selected.contains(true) else { return result }
        starts.withUnsafeBufferPointer { starts in
            codes.withUnsafeBufferPointer { codes in
                selected.withUnsafeBufferPointer { selected in
                    for rowid in 0..<min(capacity, starts.count - 1) {
                        var index = Int(starts[rowid])
                        let end = Int(starts[rowid + 1])
                        while index < end {
                            if selected[Int(codes[index])] {
                                result.insert(Int64(rowid))
                                break
                            }
                            index += 1
                        }
                    }
                }
            }
        }
        return result
    }

    /// The rows (below `capacity`) whose flags have one of the bits of `mask`.
    func rows(flagged mask: UInt8, capacity: Int) -> RowSet {
        var result = RowSet(capacity: capacity)
        flags.withUnsafeBufferPointer { flags in
            for rowid in 0..<min(capacity, flags.count) where flags[rowid] & mask != 0 {
                result.insert(Int64(rowid))
            }
        }
        return result
    }
}

/// The fields of every record of one kind that a search reads, in memory, by rowid: what
/// filters, facets and sorting read. Each column is read once, by one pass over the kind's
/// records (see ``FieldTable/loadColumn(_:of:capacity:from:folding:)``), and kept by a
/// ``FieldTableCache`` until the records change (see ``FieldVersions``).
package struct FieldTable: Sendable {
    package let kind: Kind
    /// The records' ``FieldVersions`` count it was read at.
    let version: Int64
    /// The rowids with a record.
    let records: RowSet
    /// The columns by field name (dotted paths for nested fields): at least those asked for.
    let columns: [String: FieldColumn]
    /// Rowids are below this.
    var capacity: Int { records.capacity }
}
