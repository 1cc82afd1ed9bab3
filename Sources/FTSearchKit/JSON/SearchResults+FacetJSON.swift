/// The facets of search results as JSON, as `ftsearch query --format json` prints them and
/// `GET /api/search` answers.
extension SearchResults {
    /// `"facets": {"company": {"Acme": 12, ...}}` (each field's values in count order) and
    /// `"facet_stats": {"age": {"min": 18, "max": 90}}`, for the fields facets were asked
    /// for; none when none were.
    public func facetMembers(for fields: [String]) -> [JSONMember] {
        guard !fields.isEmpty else { return [] }
        let facets = fields.map { field in
            JSONMember(
                key: field,
                value: .object(
                    (self.facets[field] ?? []).map {
                        JSONMember(key: $0.value, value: .number(String($0.count)))
                    }))
        }
        let stats = fields.compactMap { field in
            facetStats[field].map { stats in
                JSONMember(
                    key: field,
                    value: .object([
                        JSONMember(key: "min", value: .number(FilterValue.text(of: stats.min))),
                        JSONMember(key: "max", value: .number(FilterValue.text(of: stats.max))),
                    ]))
            }
        }
        return [
            JSONMember(key: "facets", value: .object(facets)),
            JSONMember(key: "facet_stats", value: .object(stats)),
        ]
    }
}
