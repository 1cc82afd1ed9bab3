import FTSearchKit

/// A Meilisearch query as its search reads it: words, and phrases in double quotes (`coco
/// "dumbo the elephant"`; a quote left open runs to the end of the text). A phrase matches its
/// words whole and one after another, in one field; a word matches as ftsearch matches it (by
/// default, as the prefix of a word).
///
/// Meilisearch's `words` rule with `matchingStrategy: last` (its default) ranks the documents
/// that match every term first, then those that match all but the last word, and so on: words
/// are dropped from the end (with `frequency`, the words most records hold first), phrases
/// never are. ``MeilisearchTermSearch`` builds that list from ftsearch's searches, one per
/// number of words kept, each asked only for as many results as the page needs.
struct MeilisearchQueryTerms: Sendable {
    var words: [String] = []
    var phrases: [String] = []

    init(_ text: String) {
        var inPhrase = false
        var current = ""
        func finish() {
            if inPhrase {
                if !current.allSatisfy(\.isWhitespace) { phrases.append(current) }
            } else {
                words += current.split(whereSeparator: \.isWhitespace).map(String.init)
            }
            current = ""
        }
        for character in text {
            if character == "\"" {
                finish()
                inPhrase.toggle()
            } else {
                current.append(character)
            }
        }
        finish()
    }

    /// The text of a search for the words not in `dropped` (positions in ``words``) and every
    /// phrase's words.
    func text(dropping dropped: some Sequence<Int>) -> String {
        let dropped = Set(dropped)
        let kept = words.indices.filter { !dropped.contains($0) }.map { words[$0] }
        return (kept + phrases).joined(separator: " ")
    }
}

/// One search of the Meilisearch routes, run as ``MeilisearchQueryTerms`` describes, on one
/// reader connection (every search it takes, in one trip to the pool).
struct MeilisearchTermSearch {
    let index: SearchIndex
    let cancellation: SearchCancellation
    let request: SearchRequest
    let terms: MeilisearchQueryTerms
    let strategy: MeilisearchSearchQuery.MatchingStrategy
    /// The searchable fields a phrase must be found in.
    let fields: [String]

    /// The page, with each hit's share of the score range (`words` buckets rank lower as they
    /// keep fewer words), and the results of the search for every term (for its tokens, which
    /// highlight, and its correction).
    struct Page {
        var results: SearchResults
        var bands: [ClosedRange<Double>]
    }

    func search() throws -> Page {
        let offset = request.offset
        let limit = request.limit ?? Int.max
        let end = offset.addingReportingOverflow(limit).overflow ? Int.max : offset + limit
        let phrases = try terms.phrases.map { try index.foldedWords(in: $0) }.filter {
            !$0.isEmpty
        }
        let count = terms.words.count
        let lowest = strategy == .all ? count : (phrases.isEmpty ? min(1, count) : 0)
        let dropOrder = try self.dropOrder()
        var hits: [SearchHit] = []
        var bands: [ClosedRange<Double>] = []
        var seen = Set<AnyRecord>()
        var full: SearchResults?
        var total = 0
        var facets: ([String: [FacetValue]], [String: FacetStats]) = ([:], [:])
        for kept in stride(from: count, through: lowest, by: -1) {
            let needsHits = hits.count < end
            guard needsHits || kept == lowest else { continue }
            var step = request
            step.text = terms.text(dropping: dropOrder.prefix(count - kept))
            step.offset = 0
            // A phrase is checked on the hits, so its search needs them all; otherwise the
            // page's end is enough, since each search's hits include the last one's.
            step.limit = phrases.isEmpty ? (needsHits ? end : 0) : nil
            // Facets count every match: the last search's, whose matches hold the others'.
            if kept != lowest { step.facets = [] }
            var results = try index.search(step, cancellation: cancellation)
            if !phrases.isEmpty {
                results.hits = try withPhrases(phrases, results.hits)
                results.total = results.hits.count
            }
            if full == nil { full = results }
            total = results.total
            facets = (results.facets, results.facetStats)
            let band = Self.band(kept: kept, of: count, dropsWords: strategy != .all)
            for hit in results.hits where hits.count < end && seen.insert(hit.record).inserted {
                hits.append(hit)
                bands.append(band)
            }
        }
        guard var results = full else { preconditionFailure("at least one search runs") }
        let page = offset < hits.count ? offset..<min(hits.count, end) : 0..<0
        results.hits = Array(hits[page])
        results.total = total
        (results.facets, results.facetStats) = facets
        results.query = request.text
        return Page(results: results, bands: Array(bands[page]))
    }

    /// The positions of the words in the order they are dropped: from the end (`last`), or the
    /// word that most records hold first (`frequency`, Meilisearch's rule; a tie drops the later
    /// word first).
    private func dropOrder() throws -> [Int] {
        let positions = Array(terms.words.indices.reversed())
        guard strategy == .frequency, positions.count > 1 else { return positions }
        var frequencies: [Int: Int] = [:]
        for position in positions {
            var alone = request
            alone.text = terms.words[position]
            alone.offset = 0
            alone.limit = 0
            alone.sort = []
            alone.facets = []
            frequencies[position] = try index.search(alone, cancellation: cancellation).total
        }
        return positions.sorted { frequencies[$0, default: 0] > frequencies[$1, default: 0] }
    }

    /// The hits in which every phrase's words follow one another, whole, in one field.
    private func withPhrases(_ phrases: [[String]], _ hits: [SearchHit]) throws -> [SearchHit] {
        let fields = Set(fields)
        return try hits.filter { hit in
            let texts = hit.record.documentMembers.compactMap { member -> String? in
                guard fields.contains(member.key), case .string(let text) = member.value
                else { return nil }
                return text
            }
            let words = try texts.map { try index.foldedWords(in: $0) }
            return phrases.allSatisfy { phrase in
                words.contains { Self.contains(phrase, in: $0) }
            }
        }
    }

    private static func contains(_ phrase: [String], in words: [String]) -> Bool {
        guard phrase.count <= words.count else { return false }
        return (0...(words.count - phrase.count)).contains {
            words[$0..<$0 + phrase.count].elementsEqual(phrase)
        }
    }

    /// The share of the score range of the hits that keep `kept` of `count` words when words
    /// are dropped: (kept / (count + 1)) up to ((kept + 1) / (count + 1)), so fewer words rank
    /// lower.
    private static func band(kept: Int, of count: Int, dropsWords: Bool) -> ClosedRange<Double> {
        guard dropsWords, count > 0 else { return 0...1 }
        return Double(kept) / Double(count + 1)...Double(kept + 1) / Double(count + 1)
    }
}
