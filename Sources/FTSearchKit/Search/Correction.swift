import FTSearchSQLite

/// Typo corrections from the index vocabulary: fuzzy matching's extra words, and did-you-mean.
struct Correction {
    let database: Database
    let request: SearchRequest
    /// Where the vocabularies are kept in memory, if anywhere.
    var memory: SearchMemory?

    /// The words of `vocabulary` within the typos ``TypoTolerance`` allows for `token`, except
    /// those starting with it (its prefix match finds them with no typo).
    static func typoMatches(of token: String, in vocabulary: Vocabulary) -> [(
        word: String, typos: Int
    )] {
        let allowed = TypoTolerance.allowedTypos(forLength: token.unicodeScalars.count)
        guard allowed > 0 else { return [] }
        let prefix = Array(token.utf8)
        return vocabulary.words(within: allowed, of: token).compactMap { match in
            let word = vocabulary.word(at: match.index)
            guard !word.starts(with: prefix) else { return nil }
            return (String(decoding: word, as: UTF8.self), match.typos)
        }
    }

    /// What to suggest when a prefix search for `tokens` found nothing: the tokens, each one
    /// that starts no indexed word replaced by its best correction — fewest typos (at least one
    /// allowed, more as ``TypoTolerance`` allows), then the word held by the most records, then
    /// the word itself. Nil when some token has no correction, or the corrected text still
    /// finds nothing (`count` runs it).
    func suggestion(for tokens: [String], count: (SearchRequest) throws -> Int) throws -> String? {
        let vocabularies = try request.kinds.inOrder.map {
            try Vocabulary.load($0, from: database, memory: memory)
        }
        var corrected: [String] = []
        for token in tokens {
            let bytes = Array(token.utf8)
            if vocabularies.contains(where: { $0.containsWord(startingWith: bytes) }) {
                corrected.append(token)
                continue
            }
            let allowed = max(1, TypoTolerance.allowedTypos(forLength: token.unicodeScalars.count))
            var candidates: [String: (typos: Int, records: Int)] = [:]
            for vocabulary in vocabularies {
                for match in vocabulary.words(within: allowed, of: token) {
                    let word = vocabulary.text(at: match.index)
                    let known = candidates[word] ?? (match.typos, 0)
                    candidates[word] = (
                        min(known.typos, match.typos),
                        known.records + vocabulary.recordCounts[match.index]
                    )
                }
            }
            let best = candidates.min { a, b in
                (a.value.typos, -a.value.records, a.key) < (b.value.typos, -b.value.records, b.key)
            }
            guard let best else { return nil }
            corrected.append(best.key)
        }
        guard corrected != tokens else { return nil }
        var check = request
        check.text = corrected.joined(separator: " ")
        return try count(check) > 0 ? check.text : nil
    }
}
