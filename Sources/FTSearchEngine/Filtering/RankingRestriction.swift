import FTSearchSQLite

/// A ranking of the rows a filter admits, or in the order of sort fields, as the kept rankings
/// (``ResultCache``) key it: the filter's normalized text and the sort fields are part of the
/// key, and the versions of the records they read (``FieldVersions``, which every write to them
/// changes, a field outside the text indexes too) are part of the state the ranking is served
/// in. The filter is evaluated, and the plans restricted to the rows it admits, only when the
/// ranking is not kept: a repeated filtered or sorted search then costs what a repeated plain
/// one does.
final class RankingRestriction {
    let filter: Filter?
    /// ``Filter/normalizedText`` and the sort fields.
    let key: String
    /// The records' version of each kind searched, in order.
    let state: [UInt8]
    private let engine: QueryEngine
    private let kinds: [Kind]
    private var restricted: [MatchPlan]?
    /// The columns read from the records to evaluate the filter, for the caller to keep on
    /// disk once its read transaction is over (see ``FieldColumnStore``).
    private(set) var read: [FieldColumnStore.Entry] = []

    /// The restriction of a search of `kinds` to the rows `filter` admits (nil: every row), in
    /// the order of `sort` (empty: relevance), in `engine`'s database as it is now (in the
    /// caller's read transaction).
    init(_ filter: Filter?, sort: [SortKey] = [], kinds: [Kind], in engine: QueryEngine) throws {
        self.filter = filter
        self.engine = engine
        self.kinds = kinds
        var parts = filter.map { ["filter " + $0.normalizedText] } ?? []
        if !sort.isEmpty { parts.append("sort " + sort.map(\.description).joined(separator: ",")) }
        key = parts.joined(separator: " ")
        var state: [UInt8] = []
        for kind in kinds {
            let version = try FieldVersions.version(of: kind, in: engine.database)
            LittleEndian.append(UInt64(bitPattern: version), byteCount: 8, to: &state)
        }
        self.state = state
    }

    /// `plans` ranking only the rows the filter admits, worked out once.
    func restricting(_ plans: [MatchPlan]) throws -> [MatchPlan] {
        if let restricted { return restricted }
        guard let filter else { return plans }
        let fields = Set(filter.fields)
        let tables = try kinds.map {
            try FieldTableCache.table(
                of: $0, fields: fields, in: engine.database, tokenizer: engine.tokenizer,
                cache: engine.fieldTables, read: &read)
        }
        let admitted = engine.admittedRows(by: filter, in: tables)
        let plans = plans.map {
            $0.admitting(admitted[$0.kind] ?? RowSet(capacity: 0), collectsMatches: false)
        }
        restricted = plans
        return plans
    }
}

extension Filter {
    /// One text for filters that are the same expression however it was written (quotes,
    /// spaces, parentheses): what kept rankings key a filtered search on.
    var normalizedText: String {
        func value(_ value: FilterValue) -> String {
            switch value {
            case .number(let number): "#" + String(number)
            case .text(let text):
                "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
            }
        }
        func name(_ field: String) -> String { value(.text(field)) }
        switch self {
        case .comparison(let field, let comparison, let operand):
            return "(\(name(field)) \(comparison.rawValue) \(value(operand)))"
        case .range(let field, let low, let high):
            return "(\(name(field)) \(value(low)) TO \(value(high)))"
        case .exists(let field): return "(\(name(field)) EXISTS)"
        case .isNull(let field): return "(\(name(field)) IS NULL)"
        case .isEmpty(let field): return "(\(name(field)) IS EMPTY)"
        case .contained(let field, let values):
            return "(\(name(field)) IN [\(values.map(value).joined(separator: ", "))])"
        case .not(let inner): return "(NOT \(inner.normalizedText))"
        case .and(let filters):
            return "(AND \(filters.map(\.normalizedText).joined(separator: " ")))"
        case .or(let filters):
            return "(OR \(filters.map(\.normalizedText).joined(separator: " ")))"
        }
    }
}
