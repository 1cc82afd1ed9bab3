/// Evaluates a ``Filter`` over the columns of one kind: the set of its rows it keeps.
struct FilterEvaluation {
    let table: FieldTable
    /// Folds the filter's text values as the table's were folded.
    var folding: TextFolding

    /// The rows of the table that `filter` keeps.
    mutating func rows(matching filter: Filter) -> RowSet {
        let capacity = table.capacity
        switch filter {
        case .comparison(let field, .notEqual, let value):
            return table.records.subtracting(
                rows(matching: .comparison(field: field, .equal, value)))
        case .comparison(let field, let comparison, let value):
            guard let column = table.columns[field] else { return RowSet(capacity: capacity) }
            let operand = Operand(value, isTime: column.isTime, folding: &folding)
            let selected = column.terms.map { operand.compare($0, comparison) }
            return column.rows(withAnyOf: selected, capacity: capacity)
        case .range(let field, let low, let high):
            guard let column = table.columns[field] else { return RowSet(capacity: capacity) }
            let low = Operand(low, isTime: column.isTime, folding: &folding)
            let high = Operand(high, isTime: column.isTime, folding: &folding)
            let selected = column.terms.map {
                low.compare($0, .greaterOrEqual) && high.compare($0, .lessOrEqual)
            }
            return column.rows(withAnyOf: selected, capacity: capacity)
        case .contained(let field, let values):
            guard let column = table.columns[field] else { return RowSet(capacity: capacity) }
            let operands = values.map { Operand($0, isTime: column.isTime, folding: &folding) }
            let selected = column.terms.map { term in
                operands.contains { $0.compare(term, .equal) }
            }
            return column.rows(withAnyOf: selected, capacity: capacity)
        case .exists(let field):
            return table.columns[field]?.rows(flagged: FieldColumn.present, capacity: capacity)
                ?? RowSet(capacity: capacity)
        case .isNull(let field):
            return table.columns[field]?.rows(flagged: FieldColumn.null, capacity: capacity)
                ?? RowSet(capacity: capacity)
        case .isEmpty(let field):
            return table.columns[field]?.rows(flagged: FieldColumn.empty, capacity: capacity)
                ?? RowSet(capacity: capacity)
        case .not(let inner):
            return table.records.subtracting(rows(matching: inner))
        case .and(let filters):
            var result = table.records
            for filter in filters { result = result.intersection(rows(matching: filter)) }
            return result
        case .or(let filters):
            var result = RowSet(capacity: capacity)
            for filter in filters { result.formUnion(rows(matching: filter)) }
            return result.intersection(table.records)
        }
    }

    /// A filter's value, read once for the terms it is compared with: as a number (a time
    /// field's text as a time), and as folded text.
    struct Operand {
        let number: Double?
        let folded: String
        let isNumber: Bool

        init(_ value: FilterValue, isTime: Bool, folding: inout TextFolding) {
            if isTime, case .text(let text) = value {
                number = Timestamp(iso8601: text).map { Double($0.millisecondsSinceEpoch) }
            } else {
                number = value.numeric
            }
            folded = folding.fold(value.text)
            if case .number = value { isNumber = true } else { isNumber = false }
        }

        /// Whether `term` compares with the value as `comparison` asks: numbers with numbers,
        /// text with text folded (a number only equals text).
        func compare(_ term: FieldTerm, _ comparison: FilterComparison) -> Bool {
            if let value = term.number {
                guard let number else { return false }
                return holds(comparison, value < number, value == number)
            }
            if isNumber, comparison != .equal { return false }
            return holds(comparison, term.folded < folded, term.folded == folded)
        }
    }

    private static func holds(_ comparison: FilterComparison, _ less: Bool, _ equal: Bool) -> Bool {
        switch comparison {
        case .equal: equal
        case .notEqual: !equal
        case .less: less
        case .lessOrEqual: less || equal
        case .greater: !less && !equal
        case .greaterOrEqual: !less
        }
    }
}
