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
            let selected = select(in: column) { term, folding in
                Self.compare(term, comparison, value, isTime: column.isTime, folding: &folding)
            }
            return column.rows(withAnyOf: selected, capacity: capacity)
        case .range(let field, let low, let high):
            guard let column = table.columns[field] else { return RowSet(capacity: capacity) }
            let selected = select(in: column) { term, folding in
                Self.compare(term, .greaterOrEqual, low, isTime: column.isTime, folding: &folding)
                    && Self.compare(
                        term, .lessOrEqual, high, isTime: column.isTime, folding: &folding)
            }
            return column.rows(withAnyOf: selected, capacity: capacity)
        case .contained(let field, let values):
            guard let column = table.columns[field] else { return RowSet(capacity: capacity) }
            let selected = select(in: column) { term, folding in
                values.contains {
                    Self.compare(term, .equal, $0, isTime: column.isTime, folding: &folding)
                }
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

    /// Which of the column's terms `holds` accepts, by code.
    private mutating func select(
        in column: FieldColumn, _ holds: (FieldTerm, inout TextFolding) -> Bool
    ) -> [Bool] {
        column.terms.map { holds($0, &folding) }
    }

    /// Whether `term` compares with `value` as `comparison` asks: numbers with numbers (a
    /// time field's text values read as times), text with text folded.
    static func compare(
        _ term: FieldTerm, _ comparison: FilterComparison, _ value: FilterValue, isTime: Bool,
        folding: inout TextFolding
    ) -> Bool {
        if let number = term.number {
            let target: Double?
            if isTime, case .text(let text) = value {
                target = Timestamp(iso8601: text).map { Double($0.millisecondsSinceEpoch) }
            } else {
                target = value.numeric
            }
            guard let target else { return false }
            return holds(comparison, number < target, number == target)
        }
        if case .number = value, comparison != .equal { return false }
        let target = folding.fold(value.text)
        return holds(comparison, term.folded < target, term.folded == target)
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
