/// The ranking rules that come before bm25, packed in one integer that sorts like them
/// (higher is better): more whole-word matches, then fewer typos, then fewer infix matches.
///
/// `whole << 16 | (255 - typos) << 8 | (255 - infix)`; typos and infix matches are capped at
/// 255, far above what a query of 32 words can reach (queries have at most 2 typos a word).
struct RankTier: Comparable, Hashable, Sendable {
    let rawValue: Int

    init(rawValue: Int) { self.rawValue = rawValue }

    init(wholeTokenMatches: Int, typos: Int, infixMatches: Int) {
        rawValue =
            wholeTokenMatches << 16 | (255 - min(typos, 255)) << 8 | (255 - min(infixMatches, 255))
    }

    /// The tier of records listed without a query: no whole words, no typos, no infixes.
    static let unranked = RankTier(wholeTokenMatches: 0, typos: 0, infixMatches: 0)

    var wholeTokenMatches: Int { rawValue >> 16 }
    var typos: Int { 255 - (rawValue >> 8 & 0xFF) }
    var infixMatches: Int { 255 - (rawValue & 0xFF) }

    static func < (a: RankTier, b: RankTier) -> Bool { a.rawValue < b.rawValue }

    /// The SQL expression of the tier, from expressions for its three parts.
    static func sql(whole: String, typos: String, infix: String) -> String {
        "((\(whole)) * 65536 + (255 - min(\(typos), 255)) * 256 + (255 - min(\(infix), 255)))"
    }
}
