package import FTSearchSQLite

/// Typo corrections from the index vocabulary: fuzzy matching's extra words, and did-you-mean.
package struct Correction {
    let database: Database
    let request: SearchRequest
    /// Where the vocabularies are kept in memory, if anywhere.
    var memory: SearchMemory?

    package init(database: Database, request: SearchRequest, memory: SearchMemory? = nil) {
        self.database = database
        self.request = request
        self.memory = memory
    }

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
    package func suggestion(for tokens: [String], count: (SearchRequest) throws -> Int) throws
        -> String?
    {
        let vocabularies = try request.kinds.inOrder.map {
            try Vocabulary.load($0, from: database, memory: memory)
        }
        var corrected: [String] = []
        for token in tokens {
            // A vowel sign, tone mark or jamo typed alone is no misspelt word.
            guard !Self.isLoneMark(token) else { return nil }
            let script = Self.script(of: token)
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
                    // A correction stays in the query's script.
                    guard Self.script(of: word) == script else { continue }
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

    /// Whether `token` is one scalar that is no word on its own: a combining mark (a Devanagari
    /// vowel sign, a Thai tone mark) or a Hangul jamo.
    static func isLoneMark(_ token: String) -> Bool {
        let scalars = token.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: break
        }
        return [0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xD7B0...0xD7FF].contains {
            $0.contains(scalar.value)
        }
    }

    /// The writing system of a folded word, roughly: the Unicode block range of its first
    /// letter that is not a digit (Latin for ASCII and the Latin blocks), so that a correction
    /// never turns Hangul or Thai into Latin letters.
    static func script(of word: String) -> Int {
        guard let scalar = word.unicodeScalars.first(where: { !("0"..."9").contains($0) }) else {
            return 0
        }
        let value = scalar.value
        let latin: [ClosedRange<UInt32>] = [
            0...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xFF00...0xFF5E,
        ]
        if latin.contains(where: { $0.contains(value) }) { return 0 }
        let blocks: [ClosedRange<UInt32>] = [
            0x370...0x3FF, 0x1F00...0x1FFF, 0x400...0x52F, 0x530...0x58F, 0x590...0x5FF,
            0x600...0x6FF, 0x750...0x77F, 0x900...0x97F, 0xE00...0xE7F, 0x10A0...0x10FF,
            0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF, 0x3040...0x30FF, 0x4E00...0x9FFF,
        ]
        // Greek's two blocks are one script; so are Hangul's and Arabic's.
        let same: [Int: Int] = [1: 0, 7: 6, 11: 10, 12: 10]
        if let index = blocks.firstIndex(where: { $0.contains(value) }) {
            return 1 + (same[index] ?? index)
        }
        return 0x1000 + Int(value >> 7)
    }
}
