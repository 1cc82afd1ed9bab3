/// Reads Meilisearch's filter syntax into a ``Filter``:
///
/// ```text
/// filter    = or EOF
/// or        = and ("OR" and)*
/// and       = not ("AND" not)*
/// not       = "NOT" not | primary
/// primary   = "(" or ")" | value condition
/// condition = ("=" | "!=" | ">" | ">=" | "<" | "<=") value | value "TO" value
///           | "IN" list | "NOT" "IN" list | "EXISTS" | "NOT" "EXISTS"
///           | "IS" ["NOT"] ("NULL" | "EMPTY")
/// list      = "[" (value ("," value)* ","?)? "]"
/// value     = word | 'single quoted' | "double quoted"
/// word      = (letter | digit | "_" | "-" | ".")+, not a keyword
/// ```
///
/// So NOT binds tighter than AND, and AND tighter than OR. Keywords are upper case, as
/// Meilisearch reads them; a keyword is a value only quoted. Inside quotes a backslash escapes
/// the quote and itself.
struct FilterParser {
    private let characters: [Character]
    private var position = 0
    /// How deep parentheses and NOTs nest, bounded as Meilisearch bounds it.
    private var depth = 0
    private static let deepest = 200
    private static let keywords: Set<String> = [
        "AND", "OR", "IN", "NOT", "TO", "EXISTS", "IS", "NULL", "EMPTY",
    ]

    init(_ expression: String) {
        characters = Array(expression)
    }

    /// The whole expression as one filter.
    mutating func parseWhole() throws(FilterSyntaxError) -> Filter {
        skipSpace()
        guard position < characters.count else {
            throw error("expected a condition such as 'company = Acme'")
        }
        let filter = try parseOr()
        skipSpace()
        guard position == characters.count else {
            if characters[position] == ")" { throw error("')' without a matching '('") }
            throw error("expected AND, OR or the end after a condition, found \(quotedRest())")
        }
        return filter
    }

    // MARK: Operators

    private mutating func parseOr() throws(FilterSyntaxError) -> Filter {
        var terms = [try parseAnd()]
        while takeKeyword("OR") {
            terms.append(try parseAnd(after: "OR"))
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseAnd(after keyword: String? = nil) throws(FilterSyntaxError)
        -> Filter
    {
        var terms = [try parseNot(after: keyword)]
        while takeKeyword("AND") {
            terms.append(try parseNot(after: "AND"))
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseNot(after keyword: String?) throws(FilterSyntaxError) -> Filter {
        if takeKeyword("NOT") {
            try enter()
            defer { depth -= 1 }
            let inner = try parseNot(after: "NOT")
            if case .not(let negated) = inner { return negated }
            return .not(inner)
        }
        return try parsePrimary(after: keyword)
    }

    private mutating func parsePrimary(after keyword: String?) throws(FilterSyntaxError) -> Filter {
        skipSpace()
        if take("(") {
            try enter()
            defer { depth -= 1 }
            skipSpace()
            guard position < characters.count, characters[position] != ")" else {
                throw error("expected a condition after '('")
            }
            let inner = try parseOr()
            skipSpace()
            guard take(")") else {
                throw error(
                    position == characters.count
                        ? "expected ')' to close the '(' before the end"
                        : "expected ')', found \(quotedRest())")
            }
            return inner
        }
        guard position < characters.count else {
            throw error(
                keyword.map { "expected a condition after '\($0)'" } ?? "expected a condition")
        }
        let field = try parseValue(expecting: "a field name")
        return try parseCondition(on: field.text)
    }

    private mutating func parseCondition(on field: String) throws(FilterSyntaxError) -> Filter {
        skipSpace()
        let start = position
        if let comparison = takeComparison() {
            let value = try parseValue(expecting: "a value after '\(comparison.rawValue)'")
            return .comparison(field: field, comparison, value.filterValue)
        }
        if takeKeyword("IN") { return .contained(field: field, try parseList()) }
        if takeKeyword("EXISTS") { return .exists(field: field) }
        if takeKeyword("NOT") {
            if takeKeyword("IN") { return .not(.contained(field: field, try parseList())) }
            if takeKeyword("EXISTS") { return .not(.exists(field: field)) }
            skipSpace()
            throw error("expected IN or EXISTS after 'NOT'")
        }
        if takeKeyword("IS") {
            let negated = takeKeyword("NOT")
            let condition: Filter
            if takeKeyword("NULL") {
                condition = .isNull(field: field)
            } else if takeKeyword("EMPTY") {
                condition = .isEmpty(field: field)
            } else {
                skipSpace()
                throw error("expected NULL or EMPTY after '\(negated ? "IS NOT" : "IS")'")
            }
            return negated ? .not(condition) : condition
        }
        if position < characters.count, !Self.isSyntax(characters[position]) {
            if let low = try? parseValue(expecting: ""), takeKeyword("TO") {
                let high = try parseValue(expecting: "a value after 'TO'")
                return .range(field: field, low.filterValue, high.filterValue)
            }
            position = start
        }
        guard position < characters.count else {
            throw error(
                "expected an operator (=, !=, >, >=, <, <=, IN, TO, EXISTS, IS) after '\(field)'")
        }
        throw error("expected an operator after '\(field)', found \(quotedRest())")
    }

    /// `[a, b, ...]`, a trailing comma allowed.
    private mutating func parseList() throws(FilterSyntaxError) -> [FilterValue] {
        skipSpace()
        guard take("[") else { throw error("expected '[' after 'IN'") }
        var values: [FilterValue] = []
        skipSpace()
        if take("]") { return values }
        while true {
            values.append(try parseValue(expecting: "a value in the list").filterValue)
            skipSpace()
            if take("]") { return values }
            guard take(",") else {
                throw error(
                    position == characters.count
                        ? "expected ']' to close the list before the end"
                        : "expected ',' or ']' in the list, found \(quotedRest())")
            }
            skipSpace()
            if take("]") { return values }
        }
    }

    // MARK: Values

    private struct Value {
        var text: String
        var isQuoted: Bool

        var filterValue: FilterValue {
            if !isQuoted, let number = FilterValue.number(in: text) { return .number(number) }
            return .text(text)
        }
    }

    /// A bare word or a quoted value; `expected` names what was expected, for the error.
    private mutating func parseValue(expecting expected: String) throws(FilterSyntaxError)
        -> Value
    {
        skipSpace()
        guard position < characters.count else {
            throw error("expected \(expected)")
        }
        let first = characters[position]
        if first == "'" || first == "\"" {
            let opening = position
            position += 1
            var text = ""
            while position < characters.count {
                let character = characters[position]
                if character == first {
                    position += 1
                    return Value(text: text, isQuoted: true)
                }
                if character == "\\", position + 1 < characters.count,
                    characters[position + 1] == first || characters[position + 1] == "\\"
                {
                    text.append(characters[position + 1])
                    position += 2
                    continue
                }
                text.append(character)
                position += 1
            }
            throw FilterSyntaxError(
                message: "the quote \(first) opened here is never closed", column: opening + 1)
        }
        let start = position
        while position < characters.count, Self.isWordCharacter(characters[position]) {
            position += 1
        }
        guard position > start else {
            throw error("expected \(expected), found \(quotedRest())")
        }
        let word = String(characters[start..<position])
        guard !Self.keywords.contains(word) else {
            position = start
            throw error(
                "expected \(expected), found the keyword \(word) (quote it to use it as a value)")
        }
        return Value(text: word, isQuoted: false)
    }

    // MARK: Characters

    private mutating func skipSpace() {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
    }

    private mutating func take(_ character: Character) -> Bool {
        guard position < characters.count, characters[position] == character else { return false }
        position += 1
        return true
    }

    private mutating func takeComparison() -> FilterComparison? {
        for comparison in [
            FilterComparison.greaterOrEqual, .lessOrEqual, .notEqual, .equal, .greater, .less,
        ] {
            let symbol = Array(comparison.rawValue)
            if position + symbol.count <= characters.count,
                Array(characters[position..<position + symbol.count]) == symbol
            {
                position += symbol.count
                return comparison
            }
        }
        return nil
    }

    /// Takes `keyword` when the next word (after white space) is exactly it.
    private mutating func takeKeyword(_ keyword: String) -> Bool {
        let saved = position
        skipSpace()
        let start = position
        while position < characters.count, Self.isWordCharacter(characters[position]) {
            position += 1
        }
        if String(characters[start..<position]) == keyword { return true }
        position = saved
        return false
    }

    private mutating func enter() throws(FilterSyntaxError) {
        depth += 1
        guard depth <= Self.deepest else {
            throw error("nested more than \(Self.deepest) levels deep")
        }
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-"
            || character == "."
    }

    private static func isSyntax(_ character: Character) -> Bool {
        "()[],=<>!".contains(character)
    }

    /// The rest of the line from the current position, quoted and shortened: `'AND x'`.
    private func quotedRest() -> String {
        guard position < characters.count else { return "the end" }
        var rest = ""
        for character in characters[position...] {
            if character.isWhitespace && !rest.isEmpty { break }
            rest.append(character)
            if rest.count >= 20 { break }
        }
        return "'\(rest)'"
    }

    private func error(_ message: String) -> FilterSyntaxError {
        FilterSyntaxError(message: message, column: position + 1)
    }
}
