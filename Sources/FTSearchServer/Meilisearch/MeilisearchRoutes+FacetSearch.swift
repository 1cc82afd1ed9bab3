import FTSearchKit
import Hummingbird

/// `POST /indexes/{uid}/facet-search`: the values of one field (`facetName`) that start with
/// `facetQuery` (folded as search folds text), each with how many matches of `q` and `filter`
/// hold it: `{"facetHits":[{"value":"cat","count":2}],"facetQuery":"c","processingTimeMs":0}`.
/// The matches are those of every word of `q` (the `all` matching strategy); the other search
/// parameters are checked as a search checks them, and do not change the counts.
extension MeilisearchRoutes {
    func addFacetSearchRoutes(_ on: AddRoute) {
        on("/indexes/:uid/facet-search", .post) { request, context in
            let kind = try Self.kind(context)
            _ = try parameters(of: request, allowing: [])
            let members = try await bodies.jsonObject(request)
            return JSONResponse.make(
                try await context.cancellingWhenClientLeaves {
                    try await facetSearch(members, in: kind)
                })
        }
    }

    private func facetSearch(_ members: [JSONMember], in kind: Kind) async throws -> JSONValue {
        let start = ContinuousClock.now
        var facetName: String?
        var facetQuery: String?
        var rest: [JSONMember] = []
        for member in members {
            switch member.key {
            case "facetName":
                facetName = try MeilisearchSearchQuery.string(
                    member.value, code: "invalid_facet_search_facet_name", name: member.key)
            case "facetQuery":
                facetQuery = try MeilisearchSearchQuery.optionalString(
                    member.value, code: "invalid_facet_search_facet_query", name: member.key)
            case "exhaustiveFacetCount" where member.value != .null:
                // Counts are always exhaustive here.
                _ = try MeilisearchSearchQuery.bool(
                    member.value, code: "invalid_facet_search_exhaustive_facet_count",
                    name: member.key)
            case "exhaustiveFacetCount": break
            default:
                // The search's parameters, checked as a search checks them (an SDK sends its
                // page and highlight defaults too); `q` and `filter` choose the matches.
                rest.append(member)
            }
        }
        guard let facetName else {
            throw MeilisearchError.invalid(
                "missing_facet_search_facet_name", "Missing field `facetName`.")
        }
        let settings = settings.settings(of: kind)
        if let filterable = settings.filterableAttributes,
            !MeilisearchSearchQuery.allows(facetName, filterable)
        {
            throw MeilisearchError.invalid(
                "invalid_facet_search_facet_name",
                "Index `\(kind.rawValue)`: Attribute `\(facetName)` is not facet-searchable. "
                    + "Available facet-searchable attributes patterns are: `"
                    + filterable.sorted().joined(separator: ", ")
                    + "`. To make it facet-searchable add it to the `filterableAttributes` index "
                    + "settings.")
        }
        let query = try MeilisearchSearchQuery(
            members: rest, maximumLimit: configuration.maximumLimit,
            maximumTagSize: configuration.maximumTagSize)
        try query.checkAttributes([], kind: kind, settings: settings)
        var search = SearchRequest(
            text: query.text, kinds: kind == .people ? .people : .animals, limit: 0,
            offset: 0, match: query.match,
            fields: try query.searchedFields(kind: kind, settings: settings))
        search.filter = query.filter
        try search.validate()
        let values = try await pool.facetValues(
            FacetSearchRequest(field: facetName, valuePrefix: facetQuery ?? "", search: search))
        let hits = MeilisearchFacets(settings: settings).ordered(values, of: facetName)
        let elapsed = start.duration(to: .now).components
        let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
        return JSONResponse.object([
            "facetHits": .array(
                hits.map { hit in
                    JSONResponse.object(["value": .string(hit.value), "count": .integer(hit.count)])
                }),
            "facetQuery": .text(facetQuery),
            "processingTimeMs": .integer(milliseconds),
        ])
    }
}
