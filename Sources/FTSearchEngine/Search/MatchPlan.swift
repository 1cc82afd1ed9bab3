/// How one kind's index is asked for the matches of a search, and what each phrase of the
/// ranking query tells about a matching row.
///
/// Each query token becomes one or more *match phrases* (any of them matches the token), and
/// the match query requires every token: `("smiht"* OR "smith") "ann"*`. The ranking query adds
/// *signal phrases* that only tell how a token matched: `("smiht"* OR "smith") OR "smiht"`.
/// FTS5 numbers phrases in the order they appear, so the match phrases come first, in token
/// order, and ``phrases`` lists the role of each.
///
/// | mode      | index      | match phrases                         | signals                 |
/// |-----------|------------|---------------------------------------|-------------------------|
/// | prefix    | words      | `"t"*`                                | whole `"t"`             |
/// | exact     | words      | `"t"` (whole)                          |                         |
/// | fuzzy     | words      | `"t"*`, each correction `"c"` (whole, its typos) | whole `"t"`  |
/// | substring | substrings | `"t"` (trigrams; `"t"*` under 3 letters) | word start, whole     |
///
/// In the word index, a token typed with accents also gets the signal of its accent form, and a
/// token matches, with one typo, its variant forms (`"\u{4}ivanov"*`, one per marker: the records spelled
/// otherwise, see ``NameVariants``) and its own variants as plain words (`Müller` asks for
/// `"mueller"*`; `sof'ia`'s `sof` and `ia` each ask for `"sofia"*` and its marked forms, the word
/// without its apostrophe), each only when some record holds it: so a spelling found only by a variant
/// ranks below the spelling typed (and in the query's own script); for tokens of three letters or
/// more, outside field-restricted searches. Substring signals are anchored trigram phrases (see ``FoldingTokenizer``).
struct MatchPlan {
    /// What a phrase of the ranking query says about the rows it hits.
    struct Phrase: Equatable {
        /// The query token it belongs to.
        var token: Int
        /// Whether it is a match phrase (counted by bm25), with its typos.
        var isMatch: Bool
        var typos = 0
        /// Whether a hit is a whole word equal to the token (or its correction).
        var isWhole: Bool
        /// Whether a hit starts a word (not an infix).
        var startsWord: Bool
        /// Whether a hit is a word written with the accents the token was typed with.
        var isAccentExact = false
        /// The phrase's one term as typed into the query (a token, or its form with markers),
        /// unquoted; the index's tokenizer makes it the term or terms the index stores.
        var term: String
        /// Whether the phrase matches every word starting with the term (`"ann"*`).
        var isPrefix: Bool

        /// The FTS5 phrase text, column filter excluded.
        var text: String { SearchPattern.quoted(term) + (isPrefix ? "*" : "") }

        /// The accent form of a token (see ``FoldingTokenizer/accentMarker``), as a prefix or
        /// whole: `"\u{1}mül"*`.
        static func accentForm(_ form: String, token index: Int, asPrefix: Bool) -> Phrase {
            Phrase(
                token: index, isMatch: false, isWhole: false, startsWord: true,
                isAccentExact: true, term: String(FoldingTokenizer.accentMarker) + form,
                isPrefix: asPrefix)
        }

        /// Another spelling of the token: a match with one typo, as a prefix or whole:
        /// `"\u{4}ivanov"*`, `"mueller"*`.
        static func variant(_ form: String, token index: Int, asPrefix: Bool) -> Phrase {
            Phrase(
                token: index, isMatch: true, typos: 1, isWhole: !asPrefix, startsWord: true,
                term: form, isPrefix: asPrefix)
        }

        /// The token as the start of a word: `"ann"*`.
        static func prefix(of token: String, token index: Int) -> Phrase {
            Phrase(
                token: index, isMatch: true, isWhole: false, startsWord: true, term: token,
                isPrefix: true)
        }

        /// `word` as a whole word: `"ann"`; a match phrase with its typos, or a signal.
        static func whole(_ word: String, token index: Int, isMatch: Bool, typos: Int = 0)
            -> Phrase
        {
            Phrase(
                token: index, isMatch: isMatch, typos: typos, isWhole: true, startsWord: true,
                term: word, isPrefix: false)
        }

        /// The token anywhere inside a word, in the substring index: its trigrams, or under 3
        /// letters a trigram prefix.
        static func infix(_ token: String, token index: Int) -> [Phrase] {
            let isShort = token.unicodeScalars.count < 3
            return [
                Phrase(
                    token: index, isMatch: true, isWhole: false, startsWord: false, term: token,
                    isPrefix: isShort)
            ]
        }

        /// Signals in the substring index: the token at the start of a word, and as the whole
        /// word (trigrams anchored by ``FoldingTokenizer``'s markers).
        static func anchoredInfixes(_ token: String, token index: Int) -> [Phrase] {
            let start = String(FoldingTokenizer.wordStartMarker)
            let end = String(FoldingTokenizer.wordEndMarker)
            let isOneLetter = token.unicodeScalars.count < 2
            return [
                Phrase(
                    token: index, isMatch: false, isWhole: false, startsWord: true,
                    term: start + token, isPrefix: isOneLetter),
                Phrase(
                    token: index, isMatch: false, isWhole: true, startsWord: true,
                    term: start + token + end, isPrefix: false),
            ]
        }
    }

    let kind: Kind
    /// The FTS5 table queried.
    let index: String
    let tokenCount: Int
    /// The match phrases first (grouped by token, in token order), then the signal phrases.
    let phrases: [Phrase]
    /// The bm25 weight of each column.
    let weights: [Double]
    /// The level of each column for the field rule (see ``RankTier``): how many distinct
    /// weights of the columns of every kind searched are below its own, so that the levels of
    /// people and animals compare. With the default weights names (a person's first and last
    /// name, an animal's name) are 1 and the company 0; columns weighted alike are all 0.
    let fieldLevels: [Int]
    /// `{first_name company} : ` when the request restricts fields, else empty.
    let columnFilter: String
    /// The index columns that filter names, by number; nil when all are matched.
    let matchedColumns: [Int]?
    /// The rows a filter admits, whether every match is to be noted and the sort order a page
    /// is collected in (see ``RowFilter``); nil for a plain ranking.
    var rowFilter: RowFilter?

    /// The plan ranking only the rows `admitted` (none when nil: every row), noting every match
    /// when `collectsMatches`, and keeping the matches that can reach a page in sort `order`
    /// rather than the best by relevance when it is given.
    func admitting(
        _ admitted: RowSet?, collectsMatches: Bool, order: SortReach.Order? = nil
    ) -> MatchPlan {
        var plan = self
        plan.rowFilter = RowFilter(
            admitted: admitted, collectsMatches: collectsMatches, order: order)
        return plan
    }

    var matchPhraseCount: Int { phrases.count { $0.isMatch } }

    /// Every token required: `{cols} : (("ann"* OR "anne") "mul"*)`.
    var matchQuery: String {
        let groups = (0..<tokenCount).map { token in
            "("
                + phrases.filter { $0.isMatch && $0.token == token }.map(\.text)
                .joined(separator: " OR ") + ")"
        }
        return columnFilter + "(" + groups.joined(separator: " AND ") + ")"
    }

    /// The match query, OR each signal phrase: the phrases ``FTS5RankCollector`` reads.
    var rankQuery: String {
        ([matchQuery] + phrases.filter { !$0.isMatch }.map { columnFilter + $0.text })
            .joined(separator: " OR ")
    }

    /// Everything the order of the plan's matches depends on besides the records: the index,
    /// the weights, the ranking query and each phrase's role. What ``ResultCache`` keys on.
    var rankingKey: String {
        let roles = phrases.map { phrase in
            [
                phrase.token, phrase.isMatch ? 1 : 0, phrase.typos, phrase.isWhole ? 1 : 0,
                phrase.startsWord ? 1 : 0, phrase.isAccentExact ? 1 : 0,
            ].map(String.init).joined(separator: ",")
        }
        let weights = weights.map { String($0) }.joined(separator: ",")
        let levels = fieldLevels.map(String.init).joined(separator: ",")
        return ([index, weights, levels, rankQuery] + roles).joined(separator: "\t")
    }

    /// The FTS5 query matching the rows where the phrases selected by `include` hit (one of
    /// them, in the filtered columns); nil when none is selected.
    func query(ofPhrases include: (Phrase) -> Bool) -> String? {
        let texts = phrases.filter(include).map(\.text)
        guard !texts.isEmpty else { return nil }
        return columnFilter + "(" + texts.joined(separator: " OR ") + ")"
    }

    /// The highest level of ``fieldLevels``.
    var topFieldLevel: Int { fieldLevels.max() ?? 0 }

    /// The field level of each column weighted `weights`: the number of distinct weights of
    /// `all` the columns searched below its own.
    static func fieldLevels(of weights: [Double], among all: [Double]) -> [Int] {
        // A few columns: the distinct weights in an array, without hashing.
        var distinct: [Double] = []
        for weight in all + weights where !distinct.contains(weight) { distinct.append(weight) }
        return weights.map { weight in distinct.count { $0 < weight } }
    }

    /// Builds the plan of `request` for `kind`; `accentForms` has, for each token typed with
    /// letters that fold (`mül`), its lowercase form with them kept; `corrections(token)`
    /// gives fuzzy matching's vocabulary words within reach of a token, with their typos;
    /// `variants` has each token's own other spellings (see ``NameVariants``),
    /// `apostropheWords` the word without apostrophes that each token is part of (`sofia` for
    /// the `sof` and the `ia` of `sof'ia`, see ``NameVariants/apostropheWords(of:in:)``), and
    /// `heldPhrases(phrases)` tells which variant phrases (by text) some record of the index
    /// holds. Nil
    /// when the request restricts matching to fields `kind` does not have (it then matches
    /// nothing).
    init?(
        kind: Kind, tokens: [String], accentForms: [String?], variants: [[String]] = [],
        apostropheWords: [String?] = [], request: SearchRequest,
        corrections: (String) throws -> [(word: String, typos: Int)],
        heldPhrases: ([Phrase]) throws -> Set<String> = { _ in [] }
    ) rethrows {
        self.kind = kind
        tokenCount = tokens.count
        weights = request.columnWeights(of: kind)
        fieldLevels = Self.fieldLevels(
            of: weights, among: request.kinds.inOrder.flatMap(request.columnWeights(of:)))
        if let columns = request.matchedColumns(of: kind) {
            guard !columns.isEmpty else { return nil }
            columnFilter = "{" + columns.joined(separator: " ") + "} : "
            matchedColumns = columns.compactMap { kind.searchableFields.firstIndex(of: $0) }
        } else {
            columnFilter = ""
            matchedColumns = nil
        }
        var matches: [Phrase] = []
        var signals: [Phrase] = []
        index = FullTextIndex.serving(request.match, of: kind).name
        // The substring index has no variant forms. Nor does a search restricted to fields ask
        // for them: SQLite's FTS5 (3.40) loses hits of a column-filtered query whose tokens
        // have several match phrases when signal phrases are ORed to it
        // (`{c} : (("a"* OR "b"*) AND ...) OR {c} : "a"`), iterating rows in order though not
        // when seeking one row, so the cursor ranking would not equal the reference. And a
        // token of one or two letters, which starts thousands of words of its own script, does
        // not either: its plan stays one phrase (the single-phrase ranking, and a kept ranking
        // brought up to date through writes, see RankingFrontier).
        let asksVariants = request.match != .substring && columnFilter.isEmpty
        // A token typed as part of a word with apostrophes also matches the word without them,
        // and its marked forms, as another spelling of the token, when that word has three
        // letters or more (whatever the token's own length: `ia` of `sof'ia`).
        let variantPhrases = tokens.enumerated().map { token, text -> [Phrase] in
            guard asksVariants else { return [] }
            func spellings(of word: String) -> [String] {
                FoldingTokenizer.variantMarkers.map { String($0) + word }
            }
            var forms: [String] = []
            if text.unicodeScalars.count >= 3 {
                forms = spellings(of: text) + (token < variants.count ? variants[token] : [])
            }
            if token < apostropheWords.count, let word = apostropheWords[token],
                word.unicodeScalars.count >= 3
            {
                forms += [word] + spellings(of: word)
            }
            return forms.filter { $0 != text }.map {
                Phrase.variant($0, token: token, asPrefix: request.match != .exact)
            }
        }
        let candidates = Array(variantPhrases.joined())
        let held = candidates.isEmpty ? [] : try heldPhrases(candidates)
        for (token, text) in tokens.enumerated() {
            switch request.match {
            case .prefix:
                matches.append(.prefix(of: text, token: token))
                signals.append(.whole(text, token: token, isMatch: false))
            case .exact:
                matches.append(.whole(text, token: token, isMatch: true))
            case .fuzzy:
                matches.append(.prefix(of: text, token: token))
                for correction in try corrections(text) {
                    matches.append(
                        .whole(
                            correction.word, token: token, isMatch: true, typos: correction.typos))
                }
                signals.append(.whole(text, token: token, isMatch: false))
            case .substring:
                matches += Phrase.infix(text, token: token)
                signals += Phrase.anchoredInfixes(text, token: token)
            }
            if !held.isEmpty { matches += variantPhrases[token].filter { held.contains($0.text) } }
            // The substring index has no accent forms.
            if let form = accentForms[token], request.match != .substring {
                signals.append(.accentForm(form, token: token, asPrefix: request.match != .exact))
            }
        }
        phrases = matches + signals
    }
}
