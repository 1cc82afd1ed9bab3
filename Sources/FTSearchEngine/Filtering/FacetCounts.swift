/// Counts the values of a field among the matches of a search: the facets of
/// ``SearchResults/facets`` and ``SearchIndex/facetValues(_:)``.
package enum FacetCounts {
    /// The most values a field's facet lists, as Meilisearch's `maxValuesPerFacet` default.
    static let valueLimit = 100

    private enum Key: Hashable {
        case text(String)
        case number(Double)
    }

    /// The values of `field` among the rows `matches` of each table, most frequent first (ties
    /// in the order the field sorts in: numbers by value, then text folded), at most `limit`;
    /// only values whose folded text starts with `prefix` (already folded) when one is given.
    /// With them, the lowest and highest number (times left out), if any.
    package static func count(
        _ field: String, over parts: [(table: FieldTable, matches: RowSet)], prefix: String? = nil,
        limit: Int = valueLimit
    ) -> (values: [FacetValue], stats: FacetStats?) {
        var lowest = Double.infinity
        var highest = -Double.infinity
        // Per table: the codes counted, with their counts.
        var counted: [(column: FieldColumn, counts: [(code: Int32, count: Int)])] = []
        for (table, matches) in parts {
            guard let column = table.columns[field], !column.terms.isEmpty else { continue }
            let perCode = counts(of: column, among: matches)
            var nonzero: [(code: Int32, count: Int)] = []
            for (code, count) in perCode.enumerated() where count > 0 {
                let term = column.terms[code]
                if let number = term.number, !column.isTime {
                    lowest = min(lowest, number)
                    highest = max(highest, number)
                }
                if let prefix, !term.folded.hasPrefix(prefix) { continue }
                nonzero.append((Int32(code), count))
            }
            if !nonzero.isEmpty { counted.append((column, nonzero)) }
        }
        let stats = lowest <= highest ? FacetStats(min: lowest, max: highest) : nil
        let limit = max(limit, 0)
        if counted.count == 1, let (column, counts) = counted.first {
            // One table: its ranks order the terms, integers only.
            let ranks = column.ranks
            let ordered = counts.sorted {
                ($1.count, ranks[Int($0.code)]) < ($0.count, ranks[Int($1.code)])
            }
            let values = ordered.prefix(limit).map {
                FacetValue(value: column.terms[Int($0.code)].display, count: $0.count)
            }
            return (values, stats)
        }
        // Several: the same value of each, merged by its folded text or number.
        var merged: [Key: (term: FieldTerm, count: Int)] = [:]
        for (column, counts) in counted {
            for (code, count) in counts {
                let term = column.terms[Int(code)]
                let key: Key = term.number.map { .number($0) } ?? .text(term.folded)
                merged[key, default: (term, 0)].count += count
            }
        }
        let ordered = merged.values.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.term.precedes($1.term)
        }
        return (
            ordered.prefix(limit).map { FacetValue(value: $0.term.display, count: $0.count) }, stats
        )
    }

    /// How many of `matches` hold each of `column`'s terms, by code: one pass over the words
    /// of the match bitmap, each match's codes counted in place.
    private static func counts(of column: FieldColumn, among matches: RowSet) -> [Int] {
        var perCode = Array(repeating: 0, count: column.terms.count)
        column.starts.withUnsafeBufferPointer { starts in
            column.codes.withUnsafeBufferPointer { codes in
                perCode.withUnsafeMutableBufferPointer { perCode in
                    matches.words.withUnsafeBufferPointer { words in
                        let rows = starts.count - 1
                        for index in 0..<min(words.count, (rows + 63) / 64) {
                            var bits = words[index]
                            while bits != 0 {
                                let row = index &* 64 &+ bits.trailingZeroBitCount
                                bits &= bits &- 1
                                guard row < rows else { break }
                                var code = Int(starts[row])
                                let end = Int(starts[row &+ 1])
                                while code < end {
                                    perCode[Int(codes[code])] &+= 1
                                    code &+= 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return perCode
    }
}
