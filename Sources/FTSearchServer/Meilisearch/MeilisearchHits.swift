import FTSearchKit

/// Turns ftsearch's search results into Meilisearch's hits: the document as
/// `export --format ndjson` writes it, with `_formatted` (highlighted and cropped),
/// `_matchesPosition` and `_rankingScore` when asked for.
struct MeilisearchHits {
    let query: MeilisearchSearchQuery
    let kind: Kind
    let results: SearchResults
    /// Each hit's share of the score range (see ``MeilisearchTermSearch``); all of it when nil.
    var bands: [ClosedRange<Double>]? = nil
    let highlighter: MatchHighlighter

    /// The searchable fields a search matched in, whose matches are shown.
    private var matchedFields: [String] {
        let fields = query.attributesToSearchOn.flatMap { $0.contains("*") ? nil : $0 }
        return kind.searchableFields.filter { fields?.contains($0) ?? true }
    }

    /// The hits, each charged to `budget` as it is made.
    func hits(charging budget: AnswerBudget) throws(APIError) -> [JSONValue] {
        var hits: [JSONValue] = []
        for (position, found) in results.hits.enumerated() {
            let value = hit(found, band: bands?[position] ?? 0...1)
            try budget.charge(value)
            hits.append(value)
        }
        return hits
    }

    private func hit(_ hit: SearchHit, band: ClosedRange<Double>) -> JSONValue {
        let document = hit.record.documentMembers
        let retrieve = query.attributesToRetrieve.flatMap { $0.contains("*") ? nil : Set($0) }
        var members = document.filter { retrieve?.contains($0.key) ?? true }
        let matched = Set(matchedFields)
        var ranges: [String: [Range<String.Index>]] = [:]
        // The query's words are highlighted and cropped around in every text field, as
        // Meilisearch (whose attributes are all searchable by default) does; positions are
        // given for the fields the search matched in.
        for member in document {
            if case .string(let text) = member.value {
                ranges[member.key] = highlighter.matchedRanges(in: text)
            }
        }
        let highlights = Self.names(query.attributesToHighlight)
        let crops = Self.cropLengths(query.attributesToCrop, default: query.cropLength)
        if !highlights.isEmpty || !crops.isEmpty {
            let formatted = members.map { member -> JSONMember in
                guard case .string(let text) = member.value else { return member }
                let highlights = highlights.contains(member.key) || highlights.contains("*")
                let cropLength = crops[member.key] ?? crops["*"]
                return JSONMember(
                    key: member.key,
                    value: .string(
                        format(
                            text, ranges: ranges[member.key] ?? [], highlights: highlights,
                            cropLength: cropLength)))
            }
            members.append(JSONMember(key: "_formatted", value: .object(formatted)))
        }
        if query.showMatchesPosition {
            let positions = document.compactMap { member -> JSONMember? in
                guard matched.contains(member.key), case .string(let text) = member.value,
                    let found = ranges[member.key], !found.isEmpty
                else { return nil }
                return JSONMember(
                    key: member.key,
                    value: .array(
                        found.map { range in
                            JSONResponse.object([
                                "start": .integer(
                                    text.utf8.distance(from: text.startIndex, to: range.lowerBound)),
                                "length": .integer(
                                    text.utf8.distance(from: range.lowerBound, to: range.upperBound)
                                ),
                            ])
                        }))
            }
            members.append(JSONMember(key: "_matchesPosition", value: .object(positions)))
        }
        if query.showRankingScore {
            let score =
                band.lowerBound + (band.upperBound - band.lowerBound) * rankingScore(of: hit)
            members.append(
                JSONMember(
                    key: "_rankingScore", value: .number(String((score * 10000).rounded() / 10000))
                ))
        }
        return .object(members)
    }

    /// A score from 0 to 1 that falls as ftsearch's ranking falls: its rank tiers (whole-word
    /// matches, then fewer typos, fewer infix matches, more accent matches) each take a share
    /// of the interval left by the one before, and bm25 the last share, so one hit ranked
    /// above another never scores less. Listing everything scores 1.
    func rankingScore(of hit: SearchHit) -> Double {
        guard !results.tokens.isEmpty else { return 1 }
        let tokens = Double(results.tokens.count)
        let bm25 = max(0, hit.score)
        var score = bm25 / (1 + bm25)
        score = (Double(min(hit.accentMatches, results.tokens.count)) + score) / (tokens + 1)
        score = (Double(max(0, results.tokens.count - hit.infixMatches)) + score) / (tokens + 1)
        score = (Double(max(0, 2 * results.tokens.count - hit.typos)) + score) / (2 * tokens + 1)
        score = (Double(min(hit.wholeTokenMatches, results.tokens.count)) + score) / (tokens + 1)
        return (score * 10000).rounded() / 10000
    }

    /// The text with each matched range between the tags (when `highlights`), cropped to
    /// `cropLength` words around the first match (when given), with the crop marker where
    /// text was cut.
    func format(
        _ text: String, ranges: [Range<String.Index>], highlights: Bool, cropLength: Int?
    ) -> String {
        var window = text.startIndex..<text.endIndex
        var prefix = ""
        var suffix = ""
        if let cropLength {
            let words = Self.words(in: text)
            if cropLength == 0 {
                return ""
            }
            if words.count > cropLength {
                let first =
                    ranges.first.flatMap { range in
                        words.firstIndex { $0.upperBound > range.lowerBound }
                    } ?? 0
                let start = max(0, min(first - (cropLength - 1) / 2, words.count - cropLength))
                let end = start + cropLength
                window = words[start].lowerBound..<words[end - 1].upperBound
                if start > 0 { prefix = query.cropMarker }
                if end < words.count { suffix = query.cropMarker }
            }
        }
        var output = prefix
        var position = window.lowerBound
        if highlights {
            for range in ranges
            where range.lowerBound >= window.lowerBound
                && range.upperBound <= window.upperBound
            {
                output += text[position..<range.lowerBound]
                output += query.highlightPreTag + text[range] + query.highlightPostTag
                position = range.upperBound
            }
        }
        output += text[position..<window.upperBound]
        return output + suffix
    }

    /// The ranges of the words (runs of anything but white space) of `text`.
    static func words(in text: String) -> [Range<String.Index>] {
        var words: [Range<String.Index>] = []
        var start: String.Index?
        for index in text.indices {
            if text[index].isWhitespace {
                if let begun = start { words.append(begun..<index) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let begun = start { words.append(begun..<text.endIndex) }
        return words
    }

    private static func names(_ attributes: [String]) -> Set<String> {
        Set(attributes)
    }

    /// `["name:5", "company"]` → `["name": 5, "company": default]`.
    private static func cropLengths(_ attributes: [String], default length: Int) -> [String: Int] {
        var lengths: [String: Int] = [:]
        for attribute in attributes {
            let parts = attribute.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let custom = Int(parts[1]), custom >= 0 {
                lengths[String(parts[0])] = custom
            } else {
                lengths[attribute] = length
            }
        }
        return lengths
    }
}
