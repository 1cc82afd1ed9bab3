/// Builds one ``FieldColumn`` record by record, in rowid order, giving each distinct value
/// (folded text, or number) a code.
struct ColumnBuilder {
    private enum TermKey: Hashable {
        case text(String)
        case number(Double)
    }

    private var flags: [UInt8]
    private var starts: [Int32]
    private var codes: [Int32] = []
    private var terms: [FieldTerm] = []
    private var termCodes: [TermKey: Int32] = [:]
    /// Codes by the text as written, sparing the folding of text seen before.
    private var writtenCodes: [String: Int32] = [:]
    /// The rowids up to which ``starts`` is filled.
    private var filled = 0
    let isTime: Bool

    init(capacity: Int, isTime: Bool) {
        flags = Array(repeating: 0, count: capacity)
        starts = Array(repeating: 0, count: capacity + 1)
        self.isTime = isTime
    }

    /// Adds what record `rowid` holds; rowids come in ascending order.
    mutating func append(_ values: RowValues, of rowid: Int, folding: inout TextFolding) {
        fill(through: rowid)
        flags[rowid] = values.flags
        var mine: [Int32] = []
        if let time = values.time {
            let text = Timestamp(millisecondsSinceEpoch: time).description
            mine.append(code(for: .number(Double(time)), folded: text, display: text))
        }
        for scalar in values.scalars {
            let code: Int32
            switch scalar {
            case .number(let literal):
                if let number = Double(literal), number.isFinite {
                    code = self.code(for: .number(number), folded: literal, display: literal)
                } else {
                    code = text(literal, folding: &folding)
                }
            case .bool(let value): code = text(value ? "true" : "false", folding: &folding)
            case .string(let string): code = text(string, folding: &folding)
            default: continue
            }
            if !mine.contains(code) { mine.append(code) }
        }
        codes += mine
        starts[rowid + 1] = Int32(codes.count)
        filled = rowid + 1
    }

    /// Adds record `rowid`'s one text value (a searchable field's), as ``append(_:of:folding:)``
    /// adds it, without the arrays that take values of any shape: a load's hot path.
    mutating func appendText(_ written: String, of rowid: Int, folding: inout TextFolding) {
        fill(through: rowid)
        if written.isEmpty {
            flags[rowid] = FieldColumn.present | FieldColumn.empty
        } else {
            flags[rowid] = FieldColumn.present
            codes.append(text(written, folding: &folding))
        }
        starts[rowid + 1] = Int32(codes.count)
        filled = rowid + 1
    }

    private mutating func text(_ written: String, folding: inout TextFolding) -> Int32 {
        if let known = writtenCodes[written] { return known }
        let folded = folding.fold(written)
        let code = self.code(for: .text(folded), folded: folded, display: written)
        if writtenCodes.count < 1_000_000 { writtenCodes[written] = code }
        return code
    }

    private mutating func code(for key: TermKey, folded: String, display: String) -> Int32 {
        if let known = termCodes[key] { return known }
        let code = Int32(terms.count)
        var number: Double?
        if case .number(let value) = key { number = value }
        terms.append(FieldTerm(folded: folded, display: display, number: number))
        termCodes[key] = code
        return code
    }

    /// Gives the rowids after the last appended, through `rowid`, no codes.
    private mutating func fill(through rowid: Int) {
        while filled < rowid {
            starts[filled + 1] = Int32(codes.count)
            filled += 1
        }
    }

    /// The column, with each term's rank in ascending sort order.
    consuming func finish(capacity: Int) -> FieldColumn {
        fill(through: capacity)
        var order = Array(terms.indices)
        let terms = self.terms
        order.sort { terms[$0].precedes(terms[$1]) }
        var ranks = Array(repeating: Int32(0), count: terms.count)
        for (rank, code) in order.enumerated() { ranks[code] = Int32(rank) }
        return FieldColumn(
            flags: flags, starts: starts, codes: codes, terms: terms, ranks: ranks, isTime: isTime)
    }
}
