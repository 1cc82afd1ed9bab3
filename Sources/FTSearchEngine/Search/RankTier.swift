/// The ranking rules that come before bm25, packed in one integer that sorts like them
/// (higher is better), in this order:
///
/// 1. **field**: the query tokens matched in the more important fields first: each token counts
///    the level of the best field it matched in (see ``MatchPlan/fieldLevels``: for people with
///    the default weights a name counts 1, the company 0), and more is better;
/// 2. **whole words**: more tokens matching a whole word (`ann` puts Ann above Annabelle);
/// 3. **typos**: fewer (fuzzy matching, and other spellings: `mueller` for Müller);
/// 4. **infixes**: fewer tokens matched only inside a word (substring matching);
/// 5. **accents**: more tokens typed with accents matching words written with them.
///
/// `field << 24 | whole << 18 | (63 - typos) << 12 | (63 - infix) << 6 | accents`: the field
/// sum capped at 127, the others at 63, beyond what queries of a few dozen words reach; the
/// whole fits in 31 bits, as ``ResultCache`` and ``RankingFrontier`` store it.
struct RankTier: Comparable, Hashable, Sendable {
    let rawValue: Int

    init(rawValue: Int) { self.rawValue = rawValue }

    init(
        fieldLevels: Int = 0, wholeTokenMatches: Int, typos: Int, infixMatches: Int,
        accentMatches: Int
    ) {
        rawValue =
            min(fieldLevels, 127) << 24 | min(wholeTokenMatches, 63) << 18
            | (63 - min(typos, 63)) << 12 | (63 - min(infixMatches, 63)) << 6
            | min(accentMatches, 63)
    }

    /// The tier of records listed without a query: no whole words, no typos, no infixes.
    static let unranked = RankTier(
        wholeTokenMatches: 0, typos: 0, infixMatches: 0, accentMatches: 0)

    /// The amount the raw value grows by for each level of field: what a tier found before
    /// the fields a row matched in are known adds for them.
    static let fieldLevelUnit = 1 << 24

    var fieldLevels: Int { rawValue >> 24 }
    var wholeTokenMatches: Int { rawValue >> 18 & 63 }
    var typos: Int { 63 - (rawValue >> 12 & 63) }
    var infixMatches: Int { 63 - (rawValue >> 6 & 63) }
    var accentMatches: Int { rawValue & 63 }

    static func < (a: RankTier, b: RankTier) -> Bool { a.rawValue < b.rawValue }

    /// The SQL expression of the tier, from expressions for its five parts.
    static func sql(
        fields: String, whole: String, typos: String, infix: String, accents: String
    ) -> String {
        "(min(\(fields), 127) * 16777216 + min(\(whole), 63) * 262144"
            + " + (63 - min(\(typos), 63)) * 4096 + (63 - min(\(infix), 63)) * 64"
            + " + min(\(accents), 63))"
    }
}
