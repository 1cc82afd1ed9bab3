/// Which records a search keeps: a condition on their fields, in Meilisearch's filter syntax
/// (https://www.meilisearch.com/docs/learn/filtering_and_sorting/filter_expression_reference)
/// or built in Swift.
///
/// ```swift
/// let filter = try Filter(parsing: "company = Acme AND (age >= 18 OR tags IN [vip, staff])")
/// let results = try index.search(SearchRequest(text: "ann", filter: filter))
/// ```
///
/// Fields are the searchable ones (`first_name`, `last_name`, `company`, `name`), `id`,
/// `created_at` and `updated_at` (ISO-8601 times, compared as times) and every extra field,
/// nested objects by dotted path (`address.city`). A field no record has matches nothing. An
/// array field matches when any of its elements does. Text equality ignores case and accents
/// as search does; values that read as numbers compare as numbers.
public indirect enum Filter: Sendable, Equatable {
    /// `field = value`, `field != value`, `field > value`...: `!=` keeps every record that
    /// `=` does not, those without the field too.
    case comparison(field: String, FilterComparison, FilterValue)
    /// `field a TO b`: `field >= a AND field <= b`.
    case range(field: String, FilterValue, FilterValue)
    /// `field EXISTS`: the record has the field, whatever its value (null too).
    case exists(field: String)
    /// `field IS NULL`: the field's value is JSON null.
    case isNull(field: String)
    /// `field IS EMPTY`: the field's value is `""`, `[]` or `{}`.
    case isEmpty(field: String)
    /// `field IN [a, b]`: the field equals one of the values.
    case contained(field: String, [FilterValue])
    /// `NOT filter`.
    case not(Filter)
    /// Every filter holds.
    case and([Filter])
    /// One of the filters holds.
    case or([Filter])

    /// Parses an expression in Meilisearch's filter syntax.
    ///
    /// - Throws: ``FilterSyntaxError`` naming the problem and its 1-based column.
    public init(parsing expression: String) throws(FilterSyntaxError) {
        var parser = FilterParser(expression)
        self = try parser.parseWhole()
    }

    /// Meilisearch's array form: the filter that holds when, for every inner array, one of
    /// its expressions holds (`[["a = 1", "b = 2"], ["c = 3"]]` is `(a = 1 OR b = 2) AND c = 3`).
    ///
    /// - Throws: ``FilterSyntaxError`` of the first expression that does not parse.
    public init(parsingAll expressions: [[String]]) throws(FilterSyntaxError) {
        var conjuncts: [Filter] = []
        for group in expressions {
            var disjuncts: [Filter] = []
            for expression in group {
                disjuncts.append(try Filter(parsing: expression))
            }
            guard !disjuncts.isEmpty else { continue }
            conjuncts.append(disjuncts.count == 1 ? disjuncts[0] : .or(disjuncts))
        }
        self = conjuncts.count == 1 ? conjuncts[0] : .and(conjuncts)
    }

    /// Every field the filter names, in the order it names them.
    public var fields: [String] {
        switch self {
        case .comparison(let field, _, _), .range(let field, _, _), .exists(let field),
            .isNull(let field), .isEmpty(let field), .contained(let field, _):
            [field]
        case .not(let filter): filter.fields
        case .and(let filters), .or(let filters): filters.flatMap(\.fields)
        }
    }
}

/// The operator of a ``Filter/comparison(field:_:_:)``.
public enum FilterComparison: String, Sendable, CaseIterable {
    /// `=`
    case equal = "="
    /// `!=`
    case notEqual = "!="
    /// `<`
    case less = "<"
    /// `<=`
    case lessOrEqual = "<="
    /// `>`
    case greater = ">"
    /// `>=`
    case greaterOrEqual = ">="
}

/// A value in a filter: a number when it was written bare and reads as one, else text.
/// A quoted number (`"42"`) is text, and still equals the number 42.
public enum FilterValue: Sendable, Equatable {
    /// Text, compared with fields folded as search folds it (case and accents).
    case text(String)
    /// A number, compared as a number.
    case number(Double)

    /// The value as a number: the number, or text that reads as one (`"42"`).
    var numeric: Double? {
        switch self {
        case .number(let number): number
        case .text(let text): FilterValue.number(in: text)
        }
    }

    /// The value as text, for comparing with text fields: a number as written by JSON
    /// (`42`, `1.5`).
    var text: String {
        switch self {
        case .text(let text): text
        case .number(let number): FilterValue.text(of: number)
        }
    }

    /// `text` as a finite number when it is written as one (digits, sign, point, exponent);
    /// nil otherwise.
    static func number(in text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ "0123456789+-.eE".utf8.contains($0) }),
            let number = Double(text), number.isFinite
        else { return nil }
        return number
    }

    /// A number's shortest text: `42` for a whole number, else Swift's description.
    package static func text(of number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }
}

/// A filter expression that does not parse: what is wrong and where.
public struct FilterSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong: `expected a value after '>='`.
    public var message: String
    /// Where, counted in characters from 1.
    public var column: Int

    /// Creates an error.
    public init(message: String, column: Int) {
        self.message = message
        self.column = column
    }

    /// `filter: expected a value after '>=' at column 12`.
    public var description: String { "filter: \(message) at column \(column)" }
}
