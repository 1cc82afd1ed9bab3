import FTSearchEngine

extension SearchIndex {
    /// The ranking helper, if this index has one: the first search that can use it creates it
    /// (its connection opens on its own thread, see ``RankingHelper``).
    var openRankingHelper: RankingHelper? {
        switch rankingHelper {
        case .open(let helper):
            return helper
        case .unavailable:
            return nil
        case .notNeededYet:
            // A second connection to an in-memory or URI path could open another database.
            guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else {
                rankingHelper = .unavailable
                return nil
            }
            let helper = RankingHelper(path: path, memoryLimits: memoryLimits)
            rankingHelper = .open(helper)
            return helper
        }
    }
}
