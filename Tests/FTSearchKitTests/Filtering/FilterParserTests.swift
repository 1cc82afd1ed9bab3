import Testing
@testable import FTSearchEngine
@testable import FTSearchKit

/// Meilisearch's filter syntax, read into ``Filter`` values.
@Suite struct FilterParserTests {
    @Test(arguments: [
        ("company = Acme", Filter.comparison(field: "company", .equal, .text("Acme"))),
        ("company != 'Acme Corp'", .comparison(field: "company", .notEqual, .text("Acme Corp"))),
        ("age > 18", .comparison(field: "age", .greater, .number(18))),
        ("age >= 18.5", .comparison(field: "age", .greaterOrEqual, .number(18.5))),
        ("age < -3", .comparison(field: "age", .less, .number(-3))),
        ("age <= 1e2", .comparison(field: "age", .lessOrEqual, .number(100))),
        ("age=18", .comparison(field: "age", .equal, .number(18))),
        ("zip = \"01234\"", .comparison(field: "zip", .equal, .text("01234"))),
        ("age 18 TO 65", .range(field: "age", .number(18), .number(65))),
        (
            "created_at 2026-01-01 TO 2026-02-01",
            .range(field: "created_at", .text("2026-01-01"), .text("2026-02-01"))
        ),
        ("tags EXISTS", .exists(field: "tags")),
        ("tags NOT EXISTS", .not(.exists(field: "tags"))),
        ("email IS NULL", .isNull(field: "email")),
        ("email IS NOT NULL", .not(.isNull(field: "email"))),
        ("tags IS EMPTY", .isEmpty(field: "tags")),
        ("tags IS NOT EMPTY", .not(.isEmpty(field: "tags"))),
        (
            "tags IN [vip, 'new customer', 3]",
            .contained(field: "tags", [.text("vip"), .text("new customer"), .number(3)])
        ),
        ("tags IN []", .contained(field: "tags", [])),
        ("tags IN [a,]", .contained(field: "tags", [.text("a")])),
        ("tags NOT IN [vip]", .not(.contained(field: "tags", [.text("vip")]))),
        ("NOT company = Acme", .not(.comparison(field: "company", .equal, .text("Acme")))),
        ("NOT NOT company = Acme", .comparison(field: "company", .equal, .text("Acme"))),
        ("address.city = Zürich", .comparison(field: "address.city", .equal, .text("Zürich"))),
        ("'first name' = 'O\\'Brien'", .comparison(field: "first name", .equal, .text("O'Brien"))),
        ("name = \"say \\\"hi\\\"\"", .comparison(field: "name", .equal, .text("say \"hi\""))),
        ("company = 'AND'", .comparison(field: "company", .equal, .text("AND"))),
    ])
    func parsesEachOperator(expression: String, expected: Filter) throws {
        #expect(try Filter(parsing: expression) == expected)
    }

    static let a = Filter.comparison(field: "a", .equal, .number(1))
    static let b = Filter.comparison(field: "b", .equal, .number(2))
    static let c = Filter.comparison(field: "c", .equal, .number(3))

    @Test(arguments: [
        // NOT binds tighter than AND, AND tighter than OR.
        ("a = 1 OR b = 2 AND c = 3", Filter.or([a, .and([b, c])])),
        ("a = 1 AND b = 2 OR c = 3", .or([.and([a, b]), c])),
        ("NOT a = 1 AND b = 2", .and([.not(a), b])),
        ("NOT (a = 1 AND b = 2)", .not(.and([a, b]))),
        ("(a = 1 OR b = 2) AND c = 3", .and([.or([a, b]), c])),
        ("a = 1 AND b = 2 AND c = 3", .and([a, b, c])),
        ("  ( ( a = 1 ) )  ", a),
    ])
    func appliesPrecedence(expression: String, expected: Filter) throws {
        #expect(try Filter(parsing: expression) == expected)
    }

    @Test func readsTheArrayForm() throws {
        let filter = try Filter(parsingAll: [["a = 1", "b = 2"], ["c = 3"]])
        #expect(filter == .and([.or([Self.a, Self.b]), Self.c]))
        #expect(try Filter(parsingAll: [["a = 1"]]) == Self.a)
    }

    @Test(arguments: [
        ("age >= ", "expected a value after '>='", 8),
        ("company = Acme AND age >=", "expected a value after '>='", 26),
        ("", "expected a condition such as 'company = Acme'", 1),
        (
            "company",
            "expected an operator (=, !=, >, >=, <, <=, IN, TO, EXISTS, IS) after 'company'", 8
        ),
        ("company ~ x", "expected an operator after 'company', found '~'", 9),
        ("company = 'Acme", "the quote ' opened here is never closed", 11),
        ("(company = Acme", "expected ')' to close the '(' before the end", 16),
        ("company = Acme)", "')' without a matching '('", 15),
        ("company = Acme Corp", "expected AND, OR or the end after a condition, found 'Corp'", 16),
        ("company = Acme AND", "expected a condition after 'AND'", 19),
        ("company = Acme OR", "expected a condition after 'OR'", 18),
        ("tags IN vip", "expected '[' after 'IN'", 9),
        ("tags IN [vip", "expected ']' to close the list before the end", 13),
        ("tags IS FULL", "expected NULL or EMPTY after 'IS'", 9),
        ("tags NOT THERE", "expected IN or EXISTS after 'NOT'", 10),
        (
            "company = AND",
            "expected a value after '=', found the keyword AND (quote it to use it as a value)", 11
        ),
        ("age 1 TO", "expected a value after 'TO'", 9),
        ("= 3", "expected a field name, found '='", 1),
        ("()", "expected a condition after '('", 2),
    ])
    func reportsProblemsWithColumns(expression: String, message: String, column: Int) {
        #expect(throws: FilterSyntaxError(message: message, column: column)) {
            try Filter(parsing: expression)
        }
    }

    @Test func describesTheErrorAsTheCommandLinePrintsIt() {
        let error = FilterSyntaxError(message: "expected a value after '>='", column: 12)
        #expect(error.description == "filter: expected a value after '>=' at column 12")
    }

    @Test func boundsNesting() {
        let deep = String(repeating: "(", count: 300) + "a = 1" + String(repeating: ")", count: 300)
        #expect(throws: FilterSyntaxError.self) { try Filter(parsing: deep) }
    }

    @Test func parsesSortKeys() throws {
        #expect(
            try SortKey.parseList("last_name:asc,age:desc") == [
                SortKey(field: "last_name"), SortKey(field: "age", descending: true),
            ])
        #expect(throws: SortKeySyntaxError.self) { try SortKey(parsing: "age") }
        #expect(throws: SortKeySyntaxError.self) { try SortKey(parsing: "age:up") }
        #expect(throws: SortKeySyntaxError.self) { try SortKey(parsing: ":asc") }
    }
}
