import FTSearchKit
import Hummingbird

/// `POST`/`GET /indexes/{uid}/search` and `POST /multi-search`: ftsearch's search (its
/// ranking, folding and prefix matching) with Meilisearch's parameters and answer.
extension MeilisearchRoutes {
    typealias AddRoute = (
        String, HTTPRequest.Method,
        @escaping @Sendable (Request, ServerContext) async throws -> Response
    ) -> Void

    func addSearchRoutes(_ on: AddRoute) {
        on("/indexes/:uid/search", .post) { request, context in
            let kind = try Self.kind(context)
            let members = try await bodies.jsonObject(request)
            let query = try MeilisearchSearchQuery(
                members: members, maximumLimit: configuration.maximumLimit,
                maximumTagSize: configuration.maximumTagSize)
            return JSONResponse.make(
                try await context.cancellingWhenClientLeaves {
                    try await search(query, in: kind, budget: answerBudget())
                })
        }
        on("/indexes/:uid/search", .get) { request, context in
            let kind = try Self.kind(context)
            let names = MeilisearchSearchQuery.supported + MeilisearchSearchQuery.unsupported
            let parameters = try QueryParameters(
                request, allowing: Set(names), maximumSize: configuration.maximumQuerySize)
            let query = try MeilisearchSearchQuery(
                parameters: names.compactMap { name in parameters[name].map { (name, $0) } },
                maximumLimit: configuration.maximumLimit,
                maximumTagSize: configuration.maximumTagSize)
            return JSONResponse.make(
                try await context.cancellingWhenClientLeaves {
                    try await search(query, in: kind, budget: answerBudget())
                })
        }
        on("/multi-search", .post) { request, context in
            try await context.cancellingWhenClientLeaves { try await multiSearch(request) }
        }
    }

    /// `{"queries":[{"indexUid":"people","q":"ann"},...]}` → `{"results":[...]}` in order,
    /// each result with its `indexUid`; with `federation`, one merged list (see
    /// ``federatedSearch(_:_:)``).
    private func multiSearch(_ request: Request) async throws -> Response {
        let members = try await bodies.jsonObject(request)
        var queries: [JSONValue]?
        var federation: MeilisearchFederation?
        for member in members {
            switch member.key {
            case "queries":
                guard case .array(let elements) = member.value else {
                    throw MeilisearchError.invalid(
                        "invalid_multi_search_queries",
                        "Invalid value type at `.queries`: expected an array.")
                }
                queries = elements
            case "federation":
                if case .null = member.value { continue }
                federation = try MeilisearchFederation(member.value)
            default:
                throw MeilisearchError.invalid(
                    "bad_request",
                    "Unknown field `\(member.key)`: expected one of queries, federation.")
            }
        }
        guard let queries else {
            throw MeilisearchError.invalid(
                "missing_multi_search_queries", "Missing field `queries`.")
        }
        guard queries.count <= configuration.maximumQueriesPerRequest else {
            throw MeilisearchError.invalid(
                "invalid_multi_search_queries",
                "`.queries` holds \(queries.count) queries: ftsearch answers at most "
                    + "\(configuration.maximumQueriesPerRequest) in one request.")
        }
        let budget = answerBudget()
        if let federation {
            return JSONResponse.make(try await federatedSearch(queries, federation, budget: budget))
        }
        var results: [JSONValue] = []
        for (position, element) in queries.enumerated() {
            do {
                guard case .object(let members) = element else {
                    throw MeilisearchError.invalid(
                        "invalid_multi_search_queries",
                        "Invalid value type at `.queries[\(position)]`: expected an object.")
                }
                let query = try MeilisearchSearchQuery(
                    members: members, allowsIndexUid: true,
                    maximumLimit: configuration.maximumLimit,
                    maximumTagSize: configuration.maximumTagSize)
                guard let uid = query.indexUid else {
                    throw MeilisearchError.invalid(
                        "missing_index_uid", "Missing field `indexUid` at `.queries[\(position)]`.")
                }
                guard
                    case .object(let answer) = try await search(
                        query, in: try Self.kind(named: uid), budget: budget)
                else { preconditionFailure("a search answers an object") }
                results.append(.object([JSONMember(key: "indexUid", value: .string(uid))] + answer))
            } catch {
                var failure = MeilisearchError(error)
                failure.message = "Inside `.queries[\(position)]`: " + failure.message
                throw failure
            }
        }
        return JSONResponse.make(.object([JSONMember(key: "results", value: .array(results))]))
    }

    /// The budget of one request's answer.
    func answerBudget() -> AnswerBudget {
        AnswerBudget(bytes: configuration.maximumAnswerSize)
    }

    /// One search, its hits charged to `budget`, answered as Meilisearch answers it, plus `didYouMean` when ftsearch has a
    /// correction for a prefix search that found nothing.
    func search(_ asked: MeilisearchSearchQuery, in kind: Kind, budget: AnswerBudget)
        async throws -> JSONValue
    {
        let start = ContinuousClock.now
        let settings = settings.settings(of: kind)
        var restricted = asked
        restricted.restrict(to: settings)
        let query = restricted
        let hitsPerPage = query.hitsPerPage ?? 20
        // Page 0 is an empty page, as in Meilisearch; no hit lies past `maxTotalHits`.
        let maxTotalHits = settings.maxTotalHits
        let offset = min(
            query.isPaged ? (max(1, query.page ?? 1) - 1) * hitsPerPage : query.offset,
            maxTotalHits)
        let limit = min(
            query.isPaged ? (query.page == 0 ? 0 : hitsPerPage) : query.limit,
            maxTotalHits - offset)
        let fields = try query.searchedFields(kind: kind, settings: settings)
        let facetFields = try query.facetFields(kind: kind, settings: settings)
        try query.checkAttributes(facetFields, kind: kind, settings: settings)
        var request = SearchRequest(
            text: query.text, kinds: kind == .people ? .people : .animals, limit: limit,
            offset: offset, match: query.match, fields: fields)
        request.filter = query.filter
        request.sort = query.sort
        request.facets = facetFields
        do {
            try request.validate()
        } catch {
            throw MeilisearchError.invalid(
                "invalid_search_attributes_to_search_on",
                "\(error.description). The searchable attributes of `\(kind.rawValue)` are "
                    + kind.searchableFields.joined(separator: ", ") + ".")
        }
        let searched = kind.searchableFields.filter { fields?.contains($0) ?? true }
        let searchRequest = request
        // One trip to the pool: every search the matching strategy takes, then the hits.
        let (results, hits) = try await pool.reading(indexesFor: searchRequest) {
            index, cancellation in
            let page = try MeilisearchTermSearch(
                index: index, cancellation: cancellation, request: searchRequest,
                terms: MeilisearchQueryTerms(query.text), strategy: query.matchingStrategy,
                fields: searched
            ).search()
            let hits = try MeilisearchHits(
                query: query, kind: kind, results: page.results, bands: page.bands,
                highlighter: try index.highlighter(for: page.results)
            ).hits(charging: budget)
            return (page.results, hits)
        }
        let elapsed = start.duration(to: .now).components
        let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
        var members: [JSONMember] = [
            JSONMember(key: "hits", value: .array(hits)),
            JSONMember(key: "query", value: .string(query.text)),
            JSONMember(key: "processingTimeMs", value: .integer(milliseconds)),
        ]
        let total = min(results.total, maxTotalHits)
        if query.isPaged {
            let pages = hitsPerPage == 0 ? 0 : (total + hitsPerPage - 1) / hitsPerPage
            members += [
                JSONMember(key: "hitsPerPage", value: .integer(hitsPerPage)),
                JSONMember(key: "page", value: .integer(query.page ?? 1)),
                JSONMember(key: "totalPages", value: .integer(pages)),
                JSONMember(key: "totalHits", value: .integer(total)),
            ]
        } else {
            members += [
                JSONMember(key: "limit", value: .integer(limit)),
                JSONMember(key: "offset", value: .integer(offset)),
                JSONMember(key: "estimatedTotalHits", value: .integer(total)),
            ]
        }
        if query.facets?.isEmpty == false {
            members += MeilisearchFacets(settings: settings).members(
                of: results, fields: facetFields)
        }
        if let correction = results.didYouMean {
            members.append(JSONMember(key: "didYouMean", value: .string(correction)))
        }
        return .object(members)
    }
}
