import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit

/// Filters, sort and facets against a reference model written here from the imported records
/// alone: which records a filter keeps, their order by sort fields (ties by the plain search's
/// order), and the counts of their values, on generated data with every operator, nulls,
/// empty arrays, nested fields, numbers written as text and accents.
@Suite struct StructuredSearchReferenceTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    static let firstNames = ["Anna", "ANNA", "Ánna", "Bo", "Zoë", "zoe", "Søren", "Mary Ann", "Al"]
    static let lastNames = ["Müller", "MULLER", "Andersen", "Lee", "Smith", "Ødegaard", "", "Ann"]
    static let companies = [
        "Acme", "ACME", "Müller GmbH", "muller gmbh", "Initech", "", "São Paulo Ltd",
    ]
    static let tags = ["vip", "VIP", "new", "staff", "Ünïcode", "two words"]
    static let cities = ["Zürich", "zurich", "Paris", "São Paulo", ""]

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        var random = SeededGenerator(seed: 47)
        var people: [[(String, JSONValue)]] = []
        for _ in 0..<700 {
            var fields: [(String, JSONValue)] = [
                ("first_name", .string(Self.firstNames.randomElement(using: &random)!)),
                ("last_name", .string(Self.lastNames.randomElement(using: &random)!)),
                ("company", .string(Self.companies.randomElement(using: &random)!)),
            ]
            switch Int.random(in: 0..<10, using: &random) {
            case 0: break
            case 1: fields.append(("age", .null))
            case 2: fields.append(("age", .string(String(Int.random(in: 10...90, using: &random)))))
            case 3:
                fields.append(
                    ("age", .number(String(Double(Int.random(in: 100...900, using: &random)) / 10)))
                )
            default:
                fields.append(("age", .number(String(Int.random(in: 10...90, using: &random)))))
            }
            switch Int.random(in: 0..<6, using: &random) {
            case 0: break
            case 1: fields.append(("tags", .array([])))
            case 2: fields.append(("tags", .string(Self.tags.randomElement(using: &random)!)))
            default:
                let count = Int.random(in: 1...3, using: &random)
                fields.append(
                    (
                        "tags",
                        .array(
                            (0..<count).map { _ in .string(Self.tags.randomElement(using: &random)!)
                            })
                    ))
            }
            switch Int.random(in: 0..<5, using: &random) {
            case 0: break
            case 1: fields.append(("address", .object([])))
            case 2: fields.append(("address", .null))
            default:
                fields.append(
                    (
                        "address",
                        .object([
                            JSONMember(
                                key: "city",
                                value: .string(Self.cities.randomElement(using: &random)!)),
                            JSONMember(
                                key: "zip",
                                value: .string(
                                    ["01234", "75001", "8000"].randomElement(using: &random)!)),
                        ])
                    ))
            }
            if Bool.random(using: &random) {
                fields.append(("active", .bool(Bool.random(using: &random))))
            }
            people.append(fields)
        }
        try index.importRecords(
            from: [ImportSource(name: "people.json", reader: RecordList(fields: people))],
            options: ImportOptions())
        let animals: [[(String, JSONValue)]] = (0..<120).map { offset in
            var fields: [(String, JSONValue)] = [
                (
                    "name",
                    .string(
                        Self.firstNames[offset % Self.firstNames.count] + " "
                            + Self.lastNames[offset % 5])
                )
            ]
            if offset % 3 == 0 {
                fields.append(("tags", .array([.string(Self.tags[offset % Self.tags.count])])))
            }
            if offset % 4 == 0 { fields.append(("age", .number(String(offset % 17)))) }
            return fields
        }
        try index.importRecords(
            from: [ImportSource(name: "animals.json", reader: RecordList(fields: animals))],
            options: ImportOptions())
    }

    static let conditions = [
        "age = 42", "age != 42", "age > 50", "age >= 50", "age < 20.5", "age <= 20", "age 30 TO 40",
        "age = '42'", "age IS NULL", "age IS NOT NULL", "age EXISTS", "age NOT EXISTS",
        "tags = vip", "tags = 'UNICODE'", "tags != new", "tags IN [vip, staff]",
        "tags NOT IN [new]",
        "tags IS EMPTY", "tags IS NOT EMPTY", "tags EXISTS", "tags = 'two words'",
        "address.city = zurich", "address.city = 'SAO PAULO'", "address.city IS EMPTY",
        "address IS EMPTY", "address IS NULL", "address EXISTS", "address.zip = '01234'",
        "address.zip = 1234", "company = 'MULLER GMBH'", "company = acme", "company IS EMPTY",
        "company > m", "last_name IS EMPTY", "first_name = anna", "name = 'anna muller'",
        "active = true", "active = false", "nothing = 1", "nothing != 1", "id > 300",
        "id 10 TO 20", "created_at > 2025-12-31", "created_at < 2025-12-31",
    ]

    static func filters() -> [String] {
        var random = SeededGenerator(seed: 11)
        var expressions = conditions
        for _ in 0..<60 {
            let a = conditions.randomElement(using: &random)!
            let b = conditions.randomElement(using: &random)!
            let c = conditions.randomElement(using: &random)!
            expressions.append(
                [
                    "\(a) AND \(b)", "\(a) OR \(b) AND \(c)", "NOT (\(a) OR \(b))",
                    "NOT \(a) AND (\(b) OR NOT \(c))",
                ].randomElement(using: &random)!)
        }
        return expressions
    }

    @Test(arguments: ["", "a", "mül", "anna"])
    func filtersAndFacetsAgreeWithTheModel(text: String) throws {
        let everything = try index.search(SearchRequest(text: text, limit: nil)).hits
        for expression in Self.filters() {
            let filter = try Filter(parsing: expression)
            let facets = ["company", "tags", "age", "address.city"]
            let results = try index.search(
                SearchRequest(text: text, limit: nil, filter: filter, facets: facets))
            let expected = everything.filter { Reference(index: index).keeps($0.record, filter) }
            #expect(
                results.hits.map(\.record.id) == expected.map(\.record.id),
                "\(expression) for '\(text)'")
            #expect(results.total == expected.count, "\(expression)")
            for field in facets {
                let counts = Reference(index: index).facets(field, of: expected.map(\.record))
                #expect(
                    results.facets[field] ?? [] == counts, "facet \(field) of \(expression)")
            }
            let numbers = expected.flatMap {
                Reference(index: index).values($0.record, "age").scalars
            }
            .compactMap { if case .number(let n) = $0 { Double(n) } else { nil } }
            #expect(
                results.facetStats["age"]
                    == numbers.min().map { FacetStats(min: $0, max: numbers.max()!) },
                "stats of \(expression)")
            let count = try index.search(SearchRequest(text: text, limit: 0, filter: filter))
            #expect(count.total == expected.count && count.hits.isEmpty)
        }
    }

    @Test(arguments: ["", "a", "ann"])
    func sortAgreesWithTheModel(text: String) throws {
        let everything = try index.search(SearchRequest(text: text, limit: nil)).hits
        let sorts = [
            [SortKey(field: "last_name")], [SortKey(field: "age", descending: true)],
            [SortKey(field: "tags")], [SortKey(field: "address.city"), SortKey(field: "age")],
            [SortKey(field: "nothing")], [SortKey(field: "created_at", descending: true)],
        ]
        for sort in sorts {
            for expression in ["tags IS NOT EMPTY OR age > 40", "id > 0"] {
                let filter = try Filter(parsing: expression)
                let model = Reference(index: index)
                let expected = model.sorted(
                    everything.map(\.record).filter { model.keeps($0, filter) }, by: sort)
                let all = try index.search(
                    SearchRequest(text: text, limit: nil, filter: filter, sort: sort))
                #expect(all.hits.map(\.record.id) == expected.map(\.id), "\(sort) \(expression)")
                for (offset, limit) in [(0, 5), (3, 7), (40, 20)] {
                    let page = try index.search(
                        SearchRequest(
                            text: text, limit: limit, offset: offset, filter: filter, sort: sort))
                    #expect(
                        page.hits.map(\.record.id)
                            == expected.dropFirst(offset).prefix(limit).map(\.id),
                        "\(sort) page \(offset) for '\(text)'")
                    #expect(page.total == expected.count)
                }
            }
        }
    }

    /// A sorted page is one walk of the matches in sort order: the same page whichever source
    /// hands the collectors their matches (the doclists, FTS5's cursor, two connections at
    /// once, each keeping the matches that can reach the page by its own half).
    @Test(arguments: ["a", "mül", "anna"])
    func sortedWalkAgreesWithTheModelFromEverySource(text: String) throws {
        let tokenizer = try index.tokenizer
        let helper = RankingHelper(path: index.path)
        let doclists = QueryEngine(database: index.database, tokenizer: tokenizer)
        var cursor = doclists
        cursor.readsDoclists = false
        let halves = QueryEngine(
            database: index.database, tokenizer: tokenizer, helper: { helper },
            parallelMinimumSpan: 0)
        let model = Reference(index: index)
        let everything = try index.search(SearchRequest(text: text, limit: nil)).hits
        let sorts = [
            [SortKey(field: "last_name")], [SortKey(field: "age", descending: true)],
            [SortKey(field: "nothing")], [SortKey(field: "tags", descending: true)],
        ]
        for sort in sorts {
            for expression in [nil, "age > 40 OR tags = vip"] {
                let filter = try expression.map { try Filter(parsing: $0) }
                let kept = everything.map(\.record).filter { r in
                    filter.map { model.keeps(r, $0) } ?? true
                }
                let expected = model.sorted(kept, by: sort)
                for (offset, limit) in [(0, 1), (0, 20), (9, 3), (150, 40), (0, 1000)] {
                    let request = SearchRequest(
                        text: text, limit: limit, offset: offset, filter: filter, sort: sort)
                    for (name, engine) in [
                        ("doclists", doclists), ("cursor", cursor), ("halves", halves),
                    ] {
                        let page = try engine.search(request)
                        #expect(
                            page.hits.map(\.record.id)
                                == expected.dropFirst(offset).prefix(limit).map(\.id),
                            "\(name): \(sort) \(expression ?? "") page \(offset) for '\(text)'")
                        #expect(page.total == expected.count, "\(name): \(sort)")
                    }
                }
            }
        }
    }

    @Test func facetValuesCountMatchesStartingWithAPrefix() throws {
        let values = try index.facetValues(
            FacetSearchRequest(
                field: "company", valuePrefix: "MÜL", search: SearchRequest(text: "a")))
        let model = Reference(index: index)
        let matches = try index.search(SearchRequest(text: "a", limit: nil)).hits.map(\.record)
        let expected = model.facets("company", of: matches).filter {
            model.fold($0.value).hasPrefix("mul")
        }
        #expect(values == expected)
        #expect(!values.isEmpty)
    }
}

/// The model: fields read from the records as the library hands them out.
private struct Reference {
    let index: SearchIndex

    func fold(_ text: String) -> String {
        ((try? index.foldedWords(in: text)) ?? []).joined(separator: " ")
    }

    struct Values {
        var exists = false
        var null = false
        var empty = false
        var scalars: [JSONValue] = []
    }

    func values(_ record: AnyRecord, _ path: String) -> Values {
        var fields = record.fields
        fields.append(JSONMember(key: "id", value: .number(String(record.id ?? 0))))
        let components = path.split(separator: ".").map(String.init)
        var found: [JSONValue] = []
        func resolve(_ value: JSONValue, _ rest: ArraySlice<String>) {
            guard let key = rest.first else { return found.append(value) }
            switch value {
            case .object(let members):
                for member in members where member.key == key {
                    resolve(member.value, rest.dropFirst())
                }
            case .array(let elements): for element in elements { resolve(element, rest) }
            default: break
            }
        }
        resolve(.object(fields), components[...])
        var result = Values(exists: !found.isEmpty)
        func scalars(_ value: JSONValue) {
            switch value {
            case .string, .number, .bool: result.scalars.append(value)
            case .array(let elements): for element in elements { scalars(element) }
            default: break
            }
        }
        for value in found {
            switch value {
            case .null: result.null = true
            case .string(""), .array([]), .object([]): result.empty = true
            case .string(let text) where text.isEmpty: result.empty = true
            default: scalars(value)
            }
        }
        if path == "created_at" || path == "updated_at" {
            let time = path == "created_at" ? record.createdAt : record.updatedAt
            result = Values(exists: true, scalars: [.number(String(time!.millisecondsSinceEpoch))])
        }
        return result
    }

    func keeps(_ record: AnyRecord, _ filter: Filter) -> Bool {
        switch filter {
        case .comparison(let field, .notEqual, let value):
            return !keeps(record, .comparison(field: field, .equal, value))
        case .comparison(let field, let comparison, let value):
            return values(record, field).scalars.contains { compare($0, comparison, value, field) }
        case .range(let field, let low, let high):
            return values(record, field).scalars.contains {
                compare($0, .greaterOrEqual, low, field) && compare($0, .lessOrEqual, high, field)
            }
        case .contained(let field, let list):
            return list.contains { keeps(record, .comparison(field: field, .equal, $0)) }
        case .exists(let field): return values(record, field).exists
        case .isNull(let field): return values(record, field).null
        case .isEmpty(let field): return values(record, field).empty
        case .not(let inner): return !keeps(record, inner)
        case .and(let filters): return filters.allSatisfy { keeps(record, $0) }
        case .or(let filters): return filters.contains { keeps(record, $0) }
        }
    }

    private func compare(
        _ scalar: JSONValue, _ comparison: FilterComparison, _ value: FilterValue, _ field: String
    ) -> Bool {
        let isTime = field == "created_at" || field == "updated_at"
        func check(_ less: Bool, _ equal: Bool) -> Bool {
            switch comparison {
            case .equal: equal
            case .notEqual: !equal
            case .less: less
            case .lessOrEqual: less || equal
            case .greater: !less && !equal
            case .greaterOrEqual: !less
            }
        }
        if case .number(let literal) = scalar, let number = Double(literal) {
            var target: Double?
            switch value {
            case .number(let n): target = n
            case .text(let text):
                target =
                    isTime
                    ? Timestamp(iso8601: text).map { Double($0.millisecondsSinceEpoch) }
                    : Double(text)
            }
            guard let target else { return false }
            return check(number < target, number == target)
        }
        let text: String
        switch scalar {
        case .string(let string): text = fold(string)
        case .bool(let flag): text = flag ? "true" : "false"
        default: return false
        }
        let target: String
        switch value {
        case .text(let string): target = fold(string)
        case .number(let number):
            guard comparison == .equal else { return false }
            target = number == number.rounded() ? String(Int(number)) : String(number)
        }
        return check(text < target, text == target)
    }

    /// Counts of each value (folded text or number) among `records`, each record once a value.
    /// A value's spelling is that of the first record (by id) holding it in the first kind
    /// (people, then animals) where a match holds it.
    func facets(_ field: String, of records: [AnyRecord]) -> [FacetValue] {
        var spelling: [Kind: [String: String]] = [:]
        let stored =
            (try? index.search(SearchRequest(text: "", limit: nil)).hits.map(\.record)) ?? []
        for record in stored.sorted(by: { $0.id! < $1.id! }) {
            for scalar in values(record, field).scalars {
                let key: String
                let text: String
                switch scalar {
                case .number(let literal): (key, text) = ("#\(Double(literal)!)", literal)
                case .string(let string): (key, text) = ("$" + fold(string), string)
                default: continue
                }
                if spelling[record.kind, default: [:]][key] == nil {
                    spelling[record.kind, default: [:]][key] = text
                }
            }
        }
        var firstKind: [String: Kind] = [:]
        for record in records {
            for scalar in values(record, field).scalars {
                switch scalar {
                case .number(let literal):
                    let key = "#\(Double(literal)!)"
                    if firstKind[key] != .people { firstKind[key] = record.kind }
                case .string(let string):
                    let key = "$" + fold(string)
                    if firstKind[key] != .people { firstKind[key] = record.kind }
                default: continue
                }
            }
        }
        var counts: [String: (display: String, count: Int)] = [:]
        for record in records {
            var seen = Set<String>()
            for scalar in values(record, field).scalars {
                let key: String
                let display: String
                switch scalar {
                case .number(let literal): (key, display) = ("#\(Double(literal)!)", literal)
                case .string(let text): (key, display) = ("$" + fold(text), text)
                case .bool(let flag): (key, display) = ("$\(flag)", "\(flag)")
                default: continue
                }
                guard seen.insert(key).inserted else { continue }
                let written = firstKind[key].flatMap { spelling[$0]?[key] } ?? display
                counts[key, default: (written, 0)].count += 1
            }
        }
        // Ties in the field's sort order: numbers by value, then text folded.
        func order(_ key: String) -> (Int, Double, String) {
            key.hasPrefix("#") ? (0, Double(key.dropFirst())!, "") : (1, 0, String(key.dropFirst()))
        }
        return counts.sorted { a, b in
            a.value.count != b.value.count
                ? a.value.count > b.value.count : order(a.key) < order(b.key)
        }
        .map { FacetValue(value: $0.value.display, count: $0.value.count) }
        .prefix(100).map { $0 }
    }

    /// `records` stably sorted by `keys`: numbers before text, missing last.
    func sorted(_ records: [AnyRecord], by keys: [SortKey]) -> [AnyRecord] {
        func key(_ record: AnyRecord, _ sortKey: SortKey) -> (Int, Double, String)? {
            let all = values(record, sortKey.field).scalars.map { scalar -> (Int, Double, String) in
                switch scalar {
                case .number(let literal): (0, Double(literal)!, "")
                case .string(let text): (1, 0, fold(text))
                case .bool(let flag): (1, 0, flag ? "true" : "false")
                default: (2, 0, "")
                }
            }
            return sortKey.descending ? all.max { $0 < $1 } : all.min { $0 < $1 }
        }
        return records.enumerated().sorted { a, b in
            for sortKey in keys {
                switch (key(a.element, sortKey), key(b.element, sortKey)) {
                case (nil, nil): continue
                case (.some, nil): return true
                case (nil, .some): return false
                case (let x?, let y?):
                    if x == y { continue }
                    return sortKey.descending ? x > y : x < y
                }
            }
            return a.offset < b.offset
        }.map(\.element)
    }
}
