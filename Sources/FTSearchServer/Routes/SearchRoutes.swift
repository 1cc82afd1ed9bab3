import FTSearchKit
import Hummingbird

/// `GET /api/search` and `GET /api/suggest`: reading only, never the history.
extension Routes {
    func addSearchRoutes(to routes: RouteTable) {
        routes.on("/api/search", .get) { request, context in
            try await context.cancellingWhenClientLeaves { try await search(request) }
        }
        routes.on("/api/suggest", .get) { request, context in
            try await context.cancellingWhenClientLeaves { try await suggest(request) }
        }
    }

    /// The object `ftsearch query --format json` prints, each result with the UTF-16 ranges
    /// of its matched text per field (`"matches":{"first_name":[[0,3]]}`, what a page needs
    /// to highlight), plus `limit` and `offset`.
    private func search(_ request: Request) async throws -> Response {
        let parameters = try QueryParameters(
            request,
            allowing: [
                "q", "kind", "match", "fields", "weights", "limit", "offset", "group_by", "filter",
                "sort", "facets",
            ],
            maximumSize: configuration.maximumQuerySize)
        var kinds = try parameters.kinds("kind", default: .all)
        let groupsByCompany: Bool
        switch parameters["group_by"] {
        case nil, "": groupsByCompany = false
        case "company":
            guard kinds.contains(.people) else {
                throw APIError.badRequest(
                    "group_by=company applies to people; animals have no company")
            }
            kinds = .people
            groupsByCompany = true
        case let other?:
            throw APIError.badRequest("group_by must be company, not '\(other)'")
        }
        let limit = try parameters.integer("limit", default: 20, in: 0...configuration.maximumLimit)
        let facets = parameters["facets"].map(Self.list) ?? []
        let searchRequest = SearchRequest(
            text: parameters.string("q", default: ""), kinds: kinds, limit: limit,
            offset: try parameters.integer("offset", default: 0, in: 0...Int(Int32.max)),
            match: try parameters.choice("match", default: MatchMode.prefix),
            fields: parameters["fields"].map(Self.list),
            weights: try parameters["weights"].map(Self.weights) ?? [:],
            filter: try Self.filter(parameters["filter"]),
            sort: (groupsByCompany ? [SortKey(field: "company")] : [])
                + (try Self.sortKeys(parameters["sort"])),
            facets: facets)
        try searchRequest.validate()
        if configuration.testSearchDelay > .zero {
            try await Task.sleep(for: configuration.testSearchDelay)
        }
        let budget = AnswerBudget(bytes: configuration.maximumAnswerSize)
        // One trip to the pool: the search, and its page highlighted on the same connection.
        let (results, hits) = try await pool.search(searchRequest) { index, results in
            let highlighter = try index.highlighter(for: results)
            let hits = try results.hits.map { hit in
                let matches = Self.matchedRanges(of: hit.record, by: highlighter)
                let value = JSONValue.object(
                    hit.jsonMembers + [JSONMember(key: "matches", value: matches)])
                try budget.charge(value)
                return value
            }
            return (results, hits)
        }
        var members: [JSONMember] = [
            JSONMember(key: "query", value: .string(results.query)),
            JSONMember(key: "total", value: .integer(results.total)),
        ]
        if let correction = results.didYouMean {
            members.append(JSONMember(key: "did_you_mean", value: .string(correction)))
        }
        members += [
            JSONMember(key: "limit", value: .integer(limit)),
            JSONMember(key: "offset", value: .integer(searchRequest.offset)),
            JSONMember(key: "results", value: .array(hits)),
        ]
        members += results.facetMembers(for: facets)
        return JSONResponse.make(.object(members))
    }

    /// `{"first_name":[[0,3]],...}`: the matched ranges of each searchable field that has
    /// some, in UTF-16 code units (JavaScript's string indices).
    private static func matchedRanges(of record: AnyRecord, by highlighter: MatchHighlighter)
        -> JSONValue
    {
        var fields: [JSONMember] = []
        for name in record.kind.searchableFields {
            let text = record[field: name] ?? ""
            let ranges = highlighter.matchedRanges(in: text)
            guard !ranges.isEmpty else { continue }
            let offsets: [JSONValue] = ranges.map { range in
                let start = text.utf16.distance(from: text.startIndex, to: range.lowerBound)
                let end = start + text.utf16.distance(from: range.lowerBound, to: range.upperBound)
                return .array([.integer(start), .integer(end)])
            }
            fields.append(JSONMember(key: name, value: .array(offsets)))
        }
        return .object(fields)
    }

    /// The `filter` parameter, parsed; nil when absent or blank.
    static func filter(_ text: String?) throws(APIError) -> Filter? {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return nil }
        do {
            return try Filter(parsing: text)
        } catch {
            throw .badRequest(error.description)
        }
    }

    /// The `sort` parameter (`last_name:asc,age:desc`), parsed.
    static func sortKeys(_ text: String?) throws(APIError) -> [SortKey] {
        guard let text, !text.allSatisfy(\.isWhitespace) else { return [] }
        do {
            return try SortKey.parseList(text)
        } catch {
            throw .badRequest(error.description)
        }
    }

    /// `first_name,company` → `["first_name", "company"]`.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
    }

    /// `first_name=10,company=4` → `["first_name": 10, "company": 4]`.
    static func weights(_ text: String) throws(APIError) -> [String: Double] {
        var weights: [String: Double] = [:]
        for item in list(text) {
            let parts = item.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
            guard parts.count == 2, let weight = Double(parts[1]), weight.isFinite else {
                throw .badRequest("weights must read like first_name=10,company=4, not '\(item)'")
            }
            weights[parts[0]] = weight
        }
        return weights
    }

    /// `[{"text","source","count","last_used"}]`, as `ftsearch suggest --format json` prints.
    /// The sources `source` names: `history`, `index` or `all` (the default).
    private static func sources(_ text: String?) throws(APIError) -> Set<Suggestion.Source> {
        guard let text, text != "all" else { return [.history, .index] }
        guard let source = Suggestion.Source(rawValue: text) else {
            throw .badRequest("source must be one of history, index, all, not '\(text)'")
        }
        return [source]
    }

    private func suggest(_ request: Request) async throws -> Response {
        let parameters = try QueryParameters(
            request, allowing: ["q", "limit", "kind", "by", "source"],
            maximumSize: configuration.maximumQuerySize)
        let prefix = parameters.string("q", default: "")
        let options = SuggestionOptions(
            limit: try parameters.integer("limit", default: 10, in: 1...100),
            kinds: try parameters.kinds("kind", default: .all),
            order: try parameters.choice("by", default: SuggestionOptions.Order.frequency),
            sources: try Self.sources(parameters["source"]))
        let suggestions = try await pool.read {
            try $0.suggestions(forPrefix: prefix, options: options)
        }
        return JSONResponse.make(
            .object([
                JSONMember(
                    key: "suggestions",
                    value: .array(
                        suggestions.map { suggestion in
                            JSONResponse.object([
                                "text": .string(suggestion.text),
                                "source": .string(suggestion.source.rawValue),
                                "count": .integer(suggestion.count),
                                "last_used": .text(suggestion.lastUsed?.secondsDescription),
                            ])
                        }))
            ]))
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        guard let start = firstIndex(where: { $0 != " " && $0 != "\t" }),
            let end = lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(self[start...end])
    }
}
