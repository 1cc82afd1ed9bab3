import FTSearchKit

extension CommandContext {
    /// Builds the indexes that searching `kinds` in `match` mode needs and `index` lacks (the
    /// substring index, on the first substring search), with a progress line on a terminal:
    /// `Building the substring index of 1,000,000 people (once)…  41%`.
    func prepareIndexes(for match: MatchMode, of kinds: KindSelection, in index: SearchIndex)
        throws
    {
        var progress = ProgressLine(output: standardError, isEnabled: isStandardErrorTerminal)
        defer { progress.clear() }
        try index.prepareIndexes(for: match, of: kinds) { progress.show($0) }
    }
}
