/// Counts the values of a field among the matches of a search: the facets of
/// ``SearchResults/facets`` and ``SearchIndex/facetValues(_:)``.
enum FacetCounts {
    /// The most values a field's facet lists, as Meilisearch's `maxValuesPerFacet` default.
    static let valueLimit = 100

    private enum Key: Hashable {
        case text(String)
        case number(Double)
    }

    /// The values of `field` among the rows `matches` of each table, most frequent first (ties
    /// by value), at most `limit`; only values whose folded text starts with `prefix` (already
    /// folded) when one is given. With them, the lowest and highest number, if any.
    static func count(
        _ field: String, over parts: [(table: FieldTable, matches: RowSet)], prefix: String? = nil,
        limit: Int = valueLimit
    ) -> (values: [FacetValue], stats: FacetStats?) {
        var counts: [Key: (display: String, count: Int)] = [:]
        var lowest = Double.infinity
        var highest = -Double.infinity
        for (table, matches) in parts {
            guard let column = table.columns[field] else { continue }
            var perCode = Array(repeating: 0, count: column.terms.count)
            column.starts.withUnsafeBufferPointer { starts in
                column.codes.withUnsafeBufferPointer { codes in
                    perCode.withUnsafeMutableBufferPointer { perCode in
                        matches.forEach { rowid in
                            let row = Int(rowid)
                            guard row + 1 < starts.count else { return }
                            for index in Int(starts[row])..<Int(starts[row + 1]) {
                                perCode[Int(codes[index])] += 1
                            }
                        }
                    }
                }
            }
            for (code, count) in perCode.enumerated() where count > 0 {
                let term = column.terms[code]
                if let number = term.number, !column.isTime {
                    lowest = min(lowest, number)
                    highest = max(highest, number)
                }
                if let prefix, !term.folded.hasPrefix(prefix) { continue }
                let key: Key = term.number.map { .number($0) } ?? .text(term.folded)
                counts[key, default: (term.display, 0)].count += count
            }
        }
        let values = counts.values.map { FacetValue(value: $0.display, count: $0.count) }
            .sorted { ($1.count, $0.value) < ($0.count, $1.value) }
        let stats = lowest <= highest ? FacetStats(min: lowest, max: highest) : nil
        return (Array(values.prefix(max(limit, 0))), stats)
    }
}
