import FTSearchKit

/// The facet answers of the Meilisearch-compatible API: a search's `facetDistribution` and
/// `facetStats`, and `POST /indexes/{uid}/facet-search`'s `facetHits`, their values in the
/// index's `faceting` order (`alpha`, the default, or `count`) and at most its
/// `maxValuesPerFacet` (the library counts at most 100 values a field, by count).
struct MeilisearchFacets {
    let settings: MeilisearchSettings

    /// `facetDistribution` (every asked field, `{}` when no match has it) and `facetStats`
    /// (the numeric fields).
    func members(of results: SearchResults, fields: [String]) -> [JSONMember] {
        let distribution = fields.map { field in
            JSONMember(
                key: field,
                value: .object(
                    ordered(results.facets[field] ?? [], of: field).map {
                        JSONMember(key: $0.value, value: .integer($0.count))
                    }))
        }
        let stats = fields.compactMap { field in
            results.facetStats[field].map { stats in
                JSONMember(
                    key: field,
                    value: .object([
                        JSONMember(key: "min", value: Self.number(stats.min)),
                        JSONMember(key: "max", value: Self.number(stats.max)),
                    ]))
            }
        }
        return [
            JSONMember(key: "facetDistribution", value: .object(distribution)),
            JSONMember(key: "facetStats", value: .object(stats)),
        ]
    }

    /// `values` in the order the settings give `field` (`alpha` ignores case, as Meilisearch
    /// orders its normalized values), cut to `maxValuesPerFacet`.
    func ordered(_ values: [FacetValue], of field: String) -> [FacetValue] {
        let sorted =
            settings.facetOrder(of: field) == "count"
            ? values
            : values.sorted {
                ($0.value.lowercased(), $0.value) < ($1.value.lowercased(), $1.value)
            }
        return Array(sorted.prefix(settings.maxValuesPerFacet))
    }

    /// A JSON number: whole numbers without a fraction, as Meilisearch writes them.
    static func number(_ value: Double) -> JSONValue {
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number(String(value))
    }
}
