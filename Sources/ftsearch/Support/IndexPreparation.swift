import FTSearchKit

extension CommandContext {
    /// Builds the indexes that searching `kinds` in `match` mode needs and `index` lacks (the
    /// substring index, on the first substring search), with a progress line on a terminal:
    /// `Building the substring index of 1,000,000 people (once)…  41%`.
    func prepareIndexes(for match: MatchMode, of kinds: Set<Kind>, in index: SearchIndex)
        throws
    {
        try showingProgress { try index.prepareIndexes(for: match, of: kinds, onProgress: $0) }
    }

    /// Builds the indexes that `request` needs and `index` lacks (none when it lists every
    /// record), with the same progress line.
    func prepareIndexes(for request: SearchRequest, in index: SearchIndex) throws {
        try showingProgress { try index.prepareIndexes(for: request, onProgress: $0) }
    }

    /// Runs `build` with a progress line on standard error (on a terminal), erased after.
    private func showingProgress(
        _ build: ((IndexBuildProgress) -> Void) throws -> Void
    ) throws {
        var progress = ProgressLine(output: standardError, isEnabled: isStandardErrorTerminal)
        defer { progress.clear() }
        try build { progress.show($0) }
    }
}
