import Testing
import FTSearchTestSupport

@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// Thousands of random Unicode queries — every FTS5 operator and punctuation, quotes, NUL and
/// the tokenizer's own marker characters (U+0001 to U+0006, see ``FoldingTokenizer``),
/// combining marks, emoji, right-to-left text — through `search` and `suggestions` on a small
/// dataset of equally hostile names. Nothing may throw, and the results must agree with a
/// reference matcher written from docs/cli.md's rules: split the query and every field into
/// tokens (with the index's own tokenizer: this checks matching and ranking, not tokenizing),
/// and match a record when every query token is a byte prefix of one of its tokens.
///
/// Scale with `FTSEARCH_STRESS_ITERATIONS`, replay with `FTSEARCH_FUZZ_SEED`.
@Suite struct QueryFuzzTests {
    static let searchCount = TestSettings.iterations(3000)
    static let suggestionCount = TestSettings.iterations(1500)

    /// Name parts: ordinary, accented, other scripts, operators and punctuation as names.
    static let nameParts = [
        "Ann", "Anna", "Annabelle", "Annex", "Zoë", "Zoe", "ZOË", "Seán", "Müller", "Ødegaard",
        "Łukasz", "O'Brien", "Mary-Jane", "Smith", "AND", "NOT", "Near", "or", "x*", "a\"b",
        "e\u{301}mile",
        "ﬁona", "Straße", "İlker", "ılık", "李小龍", "Ξένια", "محمد", "שרה", "😀Joy", "3M", "42",
        "R2-D2",
        "Nul\u{0}l", "Ünal", "(Inc.)", "^caret", "col:on", "{brace}", "née", "NÉE", "ǅemal", "Ⅻ",
        "①", "\u{1}42", "Ün\u{4}al", "\u{2}Ann\u{3}", "Иванов\u{5}",
    ]

    /// The folding tokenizer's markers (U+0001 to U+0006): a query or a name may start with one.
    static let markers = (1...6).map { String(UnicodeScalar(UInt8($0))) }

    let directory: TemporaryDirectory
    let index: SearchIndex
    let reference: ReferenceMatcher

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        var random = SeededGenerator(seed: TestSettings.seed("query-dataset", 0))
        func name() -> String {
            (0..<Int.random(in: 1...3, using: &random)).map { _ in random.pick(Self.nameParts) }
                .joined(separator: random.pick([" ", "-", "'", "", " & ", ", "]))
        }
        var people: [(String, String, String)] = []
        for _ in 0..<60 {
            people.append(
                (name(), random.chance(0.2) ? "" : name(), random.chance(0.3) ? "" : name()))
        }
        // Every person needs a first or last name.
        people = people.map { $0.0.isEmpty && $0.1.isEmpty ? ("Ann", $0.1, $0.2) : $0 }
        let animals = (0..<20).map { _ in name() }
        try index.importPeople(people)
        try index.importAnimals(animals)
        reference = ReferenceMatcher(
            tokenizer: try index.tokenizer,
            records: people.enumerated().map {
                ReferenceMatcher.Entry(
                    kind: .people, id: Int64($0 + 1), fields: [$1.0, $1.1, $1.2])
            }
                + animals.enumerated().map {
                    ReferenceMatcher.Entry(kind: .animals, id: Int64($0 + 1), fields: [$1])
                })
    }

    /// A query built from hostile pieces and pieces of the dataset's names, so that it often
    /// matches something.
    static func query(using random: inout SeededGenerator) -> String {
        let lead = random.chance(0.1) ? random.pick(markers) : ""
        return lead
            + (0..<Int.random(in: 0...5, using: &random)).map { _ in
                if random.chance(0.5) {
                    return HostileText.random(using: &random, maximumPieces: 2)
                }
                let part = random.pick(nameParts)
                let length = Int.random(in: 0...part.count, using: &random)
                let piece = String(part.prefix(length))
                return random.chance(0.3) ? piece.uppercased() : piece
            }.joined(
                separator: random.pick([
                    " ", "", "  ", "\t", "-", "\"", " AND ", " OR ", " NOT ", "*", "'", "\u{2019}",
                    "\u{1}", "\u{4}",
                ]))
    }

    @Test func searchAgreesWithTheReferenceMatcher() throws {
        var failures = 0
        for index in 0..<Self.searchCount where failures < 5 {
            let seed = TestSettings.seed("search", index)
            var random = SeededGenerator(seed: seed)
            let text = Self.query(using: &random)
            let kinds = random.pick([Set<Kind>.all, .people, .animals])
            do {
                let problems = try check(text, kinds: kinds, using: &random)
                if !problems.isEmpty {
                    failures += 1
                    Issue.record(
                        "seed \(seed), query \(text.debugDescription), \(kinds): \(problems.joined(separator: "; "))"
                    )
                }
            } catch {
                failures += 1
                Issue.record("seed \(seed), query \(text.debugDescription) threw \(error)")
            }
        }
    }

    private func check(_ text: String, kinds: Set<Kind>, using random: inout SeededGenerator)
        throws -> [String]
    {
        var problems: [String] = []
        let all = try index.search(SearchRequest(text: text, kinds: kinds, limit: nil))
        let expected = reference.matches(text, kinds: kinds.inOrder)
        if all.total != expected.count {
            problems.append("total \(all.total), expected \(expected.count)")
        }
        let found = Set(
            all.hits.map { ReferenceMatcher.Key(kind: $0.record.kind, id: $0.record.id ?? -1) })
        if found != Set(expected.keys) {
            problems.append(
                "ids differ: extra \(found.subtracting(expected.keys)), missing \(Set(expected.keys).subtracting(found))"
            )
        }
        for (position, hit) in all.hits.enumerated() {
            let key = ReferenceMatcher.Key(kind: hit.record.kind, id: hit.record.id ?? -1)
            if let whole = expected[key], whole != hit.wholeTokenMatches {
                problems.append(
                    "\(key) matches \(hit.wholeTokenMatches) whole tokens, expected \(whole)")
            }
            guard position > 0 else { continue }
            let previous = all.hits[position - 1]
            // The fields matched in, then whole-word matches, then fewer typos (a spelling
            // other than the one typed), then words matched with the accents typed, then bm25.
            let rank = { (hit: SearchHit) in
                (hit.fieldLevels, hit.wholeTokenMatches, -hit.typos, hit.accentMatches)
            }
            if rank(previous) < rank(hit)
                || (rank(previous) == rank(hit) && previous.score < hit.score - 1e-9)
            {
                problems.append(
                    "hit \(position) (\(rank(hit)), \(hit.score)) ranks below (\(rank(previous)), \(previous.score))"
                )
            }
        }
        // A page is the same slice of the full ranking.
        let limit = Int.random(in: 0...5, using: &random)
        let offset = Int.random(in: 0...6, using: &random)
        let page = try index.search(
            SearchRequest(text: text, kinds: kinds, limit: limit, offset: offset))
        let slice = all.hits.dropFirst(offset).prefix(limit == 0 ? 0 : limit)
        if page.total != all.total || page.hits != Array(slice) {
            problems.append("page limit \(limit) offset \(offset) differs from the full ranking")
        }
        return problems
    }

    @Test func suggestionsNeverFailAndCompleteThePrefix() throws {
        let history = try index.history
        var failures = 0
        for index in 0..<Self.suggestionCount where failures < 5 {
            let seed = TestSettings.seed("suggest", index)
            var random = SeededGenerator(seed: seed)
            let prefix = Self.query(using: &random)
            let options = SuggestionOptions(
                limit: Int.random(in: 1...12, using: &random),
                kinds: random.pick([.all, .people, .animals]),
                order: random.pick(SuggestionOptions.Order.allCases),
                sources: random.pick([[.history], [.index], [.history, .index]]),
                includesEmptyResults: random.chance(0.5))
            do {
                // Half the prefixes are searched first, so history holds hostile text too.
                if random.chance(0.5) {
                    try history.record(
                        prefix, kinds: options.kinds,
                        resultCount: Int.random(in: 0...3, using: &random))
                }
                let suggestions = try self.index.suggestions(forPrefix: prefix, options: options)
                let problems = try check(suggestions, for: prefix, options: options)
                if !problems.isEmpty {
                    failures += 1
                    Issue.record(
                        "seed \(seed), prefix \(prefix.debugDescription), \(options): \(problems.joined(separator: "; "))"
                    )
                }
            } catch {
                failures += 1
                Issue.record("seed \(seed), prefix \(prefix.debugDescription) threw \(error)")
            }
        }
    }

    private func check(_ suggestions: [Suggestion], for prefix: String, options: SuggestionOptions)
        throws -> [String]
    {
        var problems: [String] = []
        if suggestions.count > options.limit {
            problems.append("\(suggestions.count) suggestions, limit \(options.limit)")
        }
        let tokenizer = try index.tokenizer
        let key = Array((" " + HistoryKey.normalizePrefix(prefix, tokenizer: tokenizer)).utf8)
        for suggestion in suggestions where suggestion.source == .history {
            let text = Array(
                (" " + HistoryKey.normalize(suggestion.text, tokenizer: tokenizer)).utf8)
            if !text.contains(subsequence: key) {
                problems.append(
                    "history suggestion \(suggestion.text.debugDescription) does not complete the prefix"
                )
            }
        }
        if options.sources == [.index] {
            let expected = reference.vocabularySuggestions(
                forPrefix: prefix, kinds: options.kinds.inOrder, limit: options.limit)
            let actual = suggestions.map { ReferenceMatcher.Word(text: $0.text, count: $0.count) }
            if actual != expected {
                problems.append("index suggestions \(actual), expected \(expected)")
            }
        }
        return problems
    }
}

/// docs/cli.md's matching rules, written as plainly as possible.
///
/// A control character (U+0000 to U+001F) separates words, in a query and a record alike: every
/// text is read with each of them a space.
struct ReferenceMatcher {
    struct Entry {
        var kind: Kind
        var id: Int64
        var fields: [String]
    }

    struct Key: Hashable, CustomStringConvertible {
        var kind: Kind
        var id: Int64
        var description: String { "\(kind.rawValue) \(id)" }
    }

    struct Word: Equatable, CustomStringConvertible {
        var text: String
        var count: Int
        var description: String { "\(text.debugDescription)×\(count)" }
    }

    let tokenizer: FTS5Tokenizer
    let records: [Entry]

    func tokens(_ text: String) -> [[UInt8]] {
        tokenizer.tokens(in: Self.read(text)).map { Array($0.text.utf8) }
    }

    /// `text` with each control character U+0000 to U+001F a space (the same length in UTF-8).
    static func read(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 ? " " : $0 }))
    }

    /// The matching records, each with how many distinct query tokens it holds as whole words
    /// (a repeated query word counts once: `ann ann` searches like `ann`).
    func matches(_ text: String, kinds: [Kind]) -> [Key: Int] {
        let candidates = records.filter { kinds.contains($0.kind) }
        // White space alone lists everything; control characters alone (like punctuation)
        // are a query without words.
        if text.allSatisfy(\.isWhitespace) {
            return Dictionary(
                uniqueKeysWithValues: candidates.map { (Key(kind: $0.kind, id: $0.id), 0) })
        }
        let text = Self.read(text)
        let queryTokens = separatingJoinedNames(
            tokens(text), in: candidates.map { $0.fields.flatMap(tokens) })
        guard !queryTokens.isEmpty else { return [:] }
        let queryVariants = variants(of: text)
        let joined = apostropheWords(of: text)
        var result: [Key: Int] = [:]
        for record in candidates {
            let recordTokens = record.fields.flatMap(tokens)
            let recordVariants = record.fields.flatMap { variants(of: $0).flatMap(\.value) }
            // A query token starts a record's word; or, from three letters on, one of the
            // word's other spellings, or one of the token's other spellings starts a record's
            // word (see NameVariants); or, typed as part of a word with apostrophes between its
            // letters, that word without them (of three letters or more) starts a record's word
            // or one of its other spellings.
            let everyTokenIsAPrefix = queryTokens.allSatisfy { query in
                let hasVariants = String(decoding: query, as: UTF8.self).unicodeScalars.count >= 3
                let word = (joined[query] ?? nil).flatMap { word in
                    String(decoding: word, as: UTF8.self).unicodeScalars.count >= 3 ? word : nil
                }
                return recordTokens.contains { $0.starts(with: query) }
                    || word.map { word in
                        (recordTokens + recordVariants).contains { $0.starts(with: word) }
                    } ?? false
                    || hasVariants && recordVariants.contains { $0.starts(with: query) }
                    || hasVariants
                        && queryVariants[query, default: []].contains { variant in
                            recordTokens.contains { $0.starts(with: variant) }
                        }
            }
            if everyTokenIsAPrefix {
                result[Key(kind: record.kind, id: record.id)] =
                    Set(queryTokens).filter { recordTokens.contains($0) }.count
            }
        }
        return result
    }

    /// The query tokens with each Han, kana or Hangul word of two letters or more that starts
    /// no word of the records split in two (see ``JoinedNames``): at its first cut where some
    /// record holds both halves as words, else the first half as a word and a word starting
    /// with the second.
    func separatingJoinedNames(_ query: [[UInt8]], in records: [[[UInt8]]]) -> [[UInt8]] {
        query.flatMap { token -> [[UInt8]] in
            let letters = Array(String(decoding: token, as: UTF8.self).unicodeScalars)
            guard letters.count >= 2, letters.allSatisfy(JoinedNames.isJoinedNameLetter),
                !records.contains(where: { $0.contains { $0.starts(with: token) } })
            else { return [token] }
            let halves = (1..<letters.count).map { cut in
                (
                    Array(String(String.UnicodeScalarView(letters[..<cut])).utf8),
                    Array(String(String.UnicodeScalarView(letters[cut...])).utf8)
                )
            }
            for secondIsPrefix in [false, true] {
                for (first, second) in halves
                where records.contains(where: { words in
                    words.contains(first)
                        && words.contains {
                            secondIsPrefix ? $0.starts(with: second) : $0 == second
                        }
                }) {
                    return [first, second]
                }
            }
            return [token]
        }
    }

    /// Each query token's word written with apostrophes between its letters, without them
    /// (`sof'ia`: `sofia` for `sof` and for `ia`), nil for a token of no such word; a token
    /// typed more than once has its first occurrence's.
    func apostropheWords(of text: String) -> [[UInt8]: [UInt8]?] {
        let text = Self.read(text)
        let typed = tokenizer.tokens(in: text)
        let utf8 = Array(text.utf8)
        var words: [[UInt8]: [UInt8]?] = [:]
        var run: [FTS5Tokenizer.Token] = []
        for (index, token) in typed.enumerated() {
            run.append(token)
            let next = index + 1 < typed.count ? typed[index + 1] : nil
            let between = next.map {
                String(
                    decoding: utf8[token.sourceRange.upperBound..<$0.sourceRange.lowerBound],
                    as: UTF8.self)
            }
            if let between, ["'", "\u{2019}", "\u{2018}", "\u{2BC}"].contains(between) { continue }
            let word = run.count > 1 ? Array(run.map(\.text).joined().utf8) : nil
            for token in run where words[Array(token.text.utf8)] == nil {
                words[Array(token.text.utf8)] = .some(word)
            }
            run = []
        }
        return words
    }

    /// The other spellings of each word of `text` (German and Nordic ASCII spellings, Greek
    /// and Cyrillic romanizations, Arabic without the article), by its token.
    func variants(of text: String) -> [[UInt8]: [[UInt8]]] {
        let text = Self.read(text)
        var result: [[UInt8]: [[UInt8]]] = [:]
        let utf8 = Array(text.utf8)
        for token in tokenizer.tokens(in: text) {
            var lowercased: [UInt8] = []
            utf8[token.sourceRange].withUnsafeBytes {
                FoldingTokenizer.appendLowercased($0, to: &lowercased)
            }
            let folded = Array(token.text.utf8)
            result[folded, default: []] += NameVariants.variants(
                ofLowercased: lowercased, folded: folded)
        }
        return result
    }

    /// Index words starting with the prefix's last token, the words held by most records first
    /// (then in byte order), after the prefix's text before that token, each spelled as most
    /// of the first 32 records of each kind holding it (by id) write it, the first met on a tie.
    func vocabularySuggestions(forPrefix prefix: String, kinds: [Kind], limit: Int) -> [Word] {
        let prefixTokens = tokenizer.tokens(in: Self.read(prefix))
        guard let lastToken = prefixTokens.last, prefix.last?.isWhitespace != true else {
            return []
        }
        let last = Array(lastToken.text.utf8)
        var counts: [[UInt8]: Int] = [:]
        for record in records where kinds.contains(record.kind) {
            for token in Set(record.fields.flatMap(tokens)) where token.starts(with: last) {
                counts[token, default: 0] += 1
            }
        }
        let lead = String(
            decoding: Array(prefix.utf8)[..<lastToken.sourceRange.lowerBound], as: UTF8.self)
        return counts.sorted {
            $0.value != $1.value ? $0.value > $1.value : $0.key.lexicographicallyPrecedes($1.key)
        }
        .prefix(limit)
        .map {
            Word(
                text: lead + spelling(of: String(decoding: $0.key, as: UTF8.self), kinds: kinds),
                count: $0.value)
        }
    }

    /// `term` as most of the first 32 records of each kind holding it write it (a record
    /// counts once for each spelling it has), the first met on a tie.
    func spelling(of term: String, kinds: [Kind]) -> String {
        var spellings: [String] = []
        for kind in kinds {
            let holders = records.filter { record in
                record.kind == kind
                    && record.fields.contains { tokens($0).contains(Array(term.utf8)) }
            }
            for record in holders.sorted(by: { $0.id < $1.id }).prefix(32) {
                var recordSpellings: [String] = []
                for field in record.fields.map(Self.read) {
                    let utf8 = Array(field.utf8)
                    for token in tokenizer.tokens(in: field) where token.text == term {
                        let spelled = String(decoding: utf8[token.sourceRange], as: UTF8.self)
                        if !recordSpellings.contains(spelled) { recordSpellings.append(spelled) }
                    }
                }
                spellings += recordSpellings
            }
        }
        let counts = Dictionary(spellings.map { ($0, 1) }, uniquingKeysWith: +)
        return spellings.first { counts[$0] == counts.values.max() } ?? term
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains {
            self[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }
}
