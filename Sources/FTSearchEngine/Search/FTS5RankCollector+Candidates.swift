// Which rows stay candidates: a row is kept unless it ranks below the threshold, and the
// threshold rises as the candidates outgrow their room (see ``FTS5RankCollector``).
extension FTS5RankCollector {
    /// Keeps `candidate` unless it ranks below the threshold (in sort order: cannot reach the
    /// page), raising the threshold (dropping the candidates that no longer reach) when the
    /// candidates outgrow the selection limit (so they stay within the capacity reserved), or
    /// as soon as `capacity` of them rank in a tier above the threshold's: then every row of
    /// the threshold's tier is left out by its tier alone, its positions never decoded (a
    /// one-letter search's names, once the page is full of names that also hold the letter
    /// as a whole word), where waiting for the selection limit scored them all.
    @inline(__always)
    func admit(_ candidate: Candidate) {
        if let sortReach {
            let key = sortReach.key(of: candidate.rowid)
            guard key <= sortReach.bound else { return }
            sortReach.record(key)
            candidates.append(candidate)
            if candidates.count > selectionLimit {
                candidates.removeAll { sortReach.key(of: $0.rowid) > sortReach.bound }
                selectionLimit = max(selectionLimit, 2 * candidates.count)
            }
            return
        }
        if let least = threshold, candidate.ranksBelow(least) {
            leaveOut(tier: candidate.tier, value: candidate.value)
            return
        }
        candidates.append(candidate)
        if candidates.count > selectionLimit {
            raiseThreshold()
            selectionLimit = max(selectionLimit, 2 * candidates.count)
        } else if threshold != nil && candidate.tier > leastTier {
            candidatesAboveLeastTier += 1
            if candidatesAboveLeastTier >= capacity { raiseThreshold() }
        }
    }

    /// Notes a match that is not (or no longer) a candidate, by its tier and (a bound of) its
    /// value.
    @inline(__always)
    func leaveOut(tier: Int, value: Double) {
        if let best = bestLeftOut, (best.tier, best.value) >= (tier, value) { return }
        bestLeftOut = (tier, value)
    }

    /// Raises the threshold to the `capacity`-th best key of the candidates, which hold every
    /// row seen so far that can be among the best, and drops the candidates below it (those
    /// that could tie with it after the IDF stay).
    func raiseThreshold() {
        guard candidates.count > capacity else { return }
        let least = candidates.withUnsafeMutableBufferPointer {
            Self.select(capacity - 1, in: $0)
        }
        if threshold.map({ $0 < least }) ?? true { threshold = least }
        candidates.removeAll { candidate in
            guard candidate.ranksBelow(least) else { return false }
            leaveOut(tier: candidate.tier, value: candidate.value)
            return true
        }
        let leastTier = leastTier
        candidatesAboveLeastTier = candidates.count { $0.tier > leastTier }
    }
}
