/// The ranking rules that come before bm25, packed in one integer that sorts like them
/// (higher is better): more whole-word matches, then fewer typos, then fewer infix matches,
/// then more words matched with the accents typed.
///
/// `whole << 24 | (255 - typos) << 16 | (255 - infix) << 8 | accents`; the last three are
/// capped at 255, far above what a query of 32 words can reach (at most 2 typos a word).
struct RankTier: Comparable, Hashable, Sendable {
    let rawValue: Int

    init(rawValue: Int) { self.rawValue = rawValue }

    init(wholeTokenMatches: Int, typos: Int, infixMatches: Int, accentMatches: Int) {
        rawValue =
            wholeTokenMatches << 24 | (255 - min(typos, 255)) << 16
            | (255 - min(infixMatches, 255)) << 8 | min(accentMatches, 255)
    }

    /// The tier of records listed without a query: no whole words, no typos, no infixes.
    static let unranked = RankTier(
        wholeTokenMatches: 0, typos: 0, infixMatches: 0, accentMatches: 0)

    var wholeTokenMatches: Int { rawValue >> 24 }
    var typos: Int { 255 - (rawValue >> 16 & 0xFF) }
    var infixMatches: Int { 255 - (rawValue >> 8 & 0xFF) }
    var accentMatches: Int { rawValue & 0xFF }

    static func < (a: RankTier, b: RankTier) -> Bool { a.rawValue < b.rawValue }

    /// The SQL expression of the tier, from expressions for its four parts.
    static func sql(whole: String, typos: String, infix: String, accents: String) -> String {
        "((\(whole)) * 16777216 + (255 - min(\(typos), 255)) * 65536"
            + " + (255 - min(\(infix), 255)) * 256 + min(\(accents), 255))"
    }
}
