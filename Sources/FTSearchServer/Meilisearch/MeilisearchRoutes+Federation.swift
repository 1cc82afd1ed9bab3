import FTSearchKit

/// The `federation` of a multi-search: `offset` (0) and `limit` (20) of the merged list.
struct MeilisearchFederation {
    var offset = 0
    var limit = 20

    init(_ value: JSONValue) throws(MeilisearchError) {
        guard case .object(let members) = value else {
            throw .invalid(
                "invalid_multi_search_federation",
                "Invalid value type at `.federation`: expected an object.")
        }
        for member in members {
            let code =
                "invalid_multi_search_federation_"
                + MeilisearchSearchQuery.snakeCase(
                    member.key)
            switch member.key {
            case "offset":
                offset = try MeilisearchSearchQuery.integer(
                    member.value, code: code, name: "federation.offset", in: 0...Int(Int32.max))
            case "limit":
                limit = try MeilisearchSearchQuery.integer(
                    member.value, code: code, name: "federation.limit", in: 0...Int(Int32.max))
            case "facetsByIndex", "mergeFacets", "page", "hitsPerPage", "merge":
                guard MeilisearchSearchQuery.isEmpty(member.value) else {
                    throw .invalid(
                        "invalid_multi_search_federation",
                        "ftsearch does not support `federation.\(member.key)`: give `offset` and "
                            + "`limit`.")
                }
            default:
                throw .invalid(
                    "bad_request",
                    "Unknown field `federation.\(member.key)`: expected one of offset, limit.")
            }
        }
    }
}

extension MeilisearchRoutes {
    /// A federated multi-search: every query's hits in one list, by their `_rankingScore`
    /// times the query's `federationOptions.weight` (1), highest first, a document found by two
    /// queries once (where it scored best); each hit has `_federation` (`indexUid`,
    /// `queriesPosition`, `weightedRankingScore`). A query gives no page of its own (400
    /// `invalid_multi_search_query_pagination`): the federation's `offset` and `limit` page the
    /// list, whose `estimatedTotalHits` counts the hits of every query.
    func federatedSearch(
        _ queries: [JSONValue], _ federation: MeilisearchFederation, budget: AnswerBudget
    ) async throws -> JSONValue {
        let start = ContinuousClock.now
        let (end, overflow) = federation.offset.addingReportingOverflow(federation.limit)
        var merged: [(score: Double, position: Int, hit: [JSONMember])] = []
        var best: [String: Int] = [:]
        var total = 0
        for (position, element) in queries.enumerated() {
            do {
                guard case .object(var members) = element else {
                    throw MeilisearchError.invalid(
                        "invalid_multi_search_queries",
                        "Invalid value type at `.queries[\(position)]`: expected an object.")
                }
                let weight = try Self.weight(removingOptionsFrom: &members)
                if let paged = members.first(where: {
                    ["offset", "limit", "page", "hitsPerPage"].contains($0.key)
                        && !MeilisearchSearchQuery.isEmpty($0.value)
                }) {
                    throw MeilisearchError.invalid(
                        "invalid_multi_search_query_pagination",
                        "`\(paged.key)` is not allowed in a federated query: page the merged "
                            + "list with `federation.offset` and `federation.limit`.")
                }
                var query = try MeilisearchSearchQuery(
                    members: members, allowsIndexUid: true,
                    maximumLimit: configuration.maximumLimit,
                    maximumTagSize: configuration.maximumTagSize)
                guard let uid = query.indexUid else {
                    throw MeilisearchError.invalid(
                        "missing_index_uid", "Missing field `indexUid` at `.queries[\(position)]`.")
                }
                let showsScore = query.showRankingScore
                query.showRankingScore = true
                query.offset = 0
                query.limit = min(overflow ? Int.max : end, configuration.maximumLimit)
                guard
                    case .object(let answer) = try await search(
                        query, in: try Self.kind(named: uid), budget: budget),
                    case .array(let hits)? = answer.first(where: { $0.key == "hits" })?.value
                else { preconditionFailure("a search answers an object with hits") }
                if case .number(let count)? = answer.first(where: {
                    $0.key == "estimatedTotalHits"
                })?.value {
                    total += Int(count) ?? 0
                }
                for case .object(var hit) in hits {
                    let score =
                        hit.first { $0.key == "_rankingScore" }?.value.scalarText
                        .flatMap(Double.init) ?? 0
                    if !showsScore { hit.removeAll { $0.key == "_rankingScore" } }
                    let weighted = score * weight
                    hit.append(
                        JSONMember(
                            key: "_federation",
                            value: JSONResponse.object([
                                "indexUid": .string(uid),
                                "queriesPosition": .integer(position),
                                "weightedRankingScore": .number(
                                    String((weighted * 10000).rounded() / 10000)),
                            ])))
                    let id = uid + "/" + (hit.first { $0.key == "id" }?.value.scalarText ?? "")
                    if let seen = best[id] {
                        if merged[seen].score < weighted {
                            merged[seen] = (weighted, position, hit)
                        }
                    } else {
                        best[id] = merged.count
                        merged.append((weighted, position, hit))
                    }
                }
            } catch {
                var failure = MeilisearchError(error)
                failure.message = "Inside `.queries[\(position)]`: " + failure.message
                throw failure
            }
        }
        let ranked = merged.enumerated().sorted { left, right in
            left.element.score != right.element.score
                ? left.element.score > right.element.score : left.offset < right.offset
        }.map { JSONValue.object($0.element.hit) }
        let page = ranked.dropFirst(federation.offset).prefix(federation.limit)
        let elapsed = start.duration(to: .now).components
        return JSONResponse.object([
            "hits": .array(Array(page)),
            "processingTimeMs": .integer(
                elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000),
            "limit": .integer(federation.limit),
            "offset": .integer(federation.offset),
            "estimatedTotalHits": .integer(total),
        ])
    }

    /// The `federationOptions.weight` of a query (1 when absent), its options taken out.
    private static func weight(removingOptionsFrom members: inout [JSONMember])
        throws(MeilisearchError) -> Double
    {
        guard let index = members.firstIndex(where: { $0.key == "federationOptions" }) else {
            return 1
        }
        let options = members.remove(at: index).value
        guard case .object(let fields) = options else {
            if case .null = options { return 1 }
            throw .invalid(
                "invalid_multi_search_federation_options",
                "Invalid value type at `.federationOptions`: expected an object.")
        }
        var weight = 1.0
        for field in fields {
            switch field.key {
            case "weight":
                guard case .number(let text) = field.value, let value = Double(text), value >= 0
                else {
                    throw .invalid(
                        "invalid_multi_search_weight",
                        "Invalid value at `.federationOptions.weight`: expected a number >= 0.")
                }
                weight = value
            case "queryPosition":
                continue
            default:
                throw .invalid(
                    "invalid_multi_search_federation_options",
                    "ftsearch does not support `federationOptions.\(field.key)`: give `weight`.")
            }
        }
        return weight
    }
}
