import Synchronization
import FTSearchSQLite

/// A flag that stops a search in progress: raised from any thread, it makes the search throw
/// `CancellationError` within a few microseconds of SQLite work.
///
/// ```swift
/// let cancellation = SearchCancellation()
/// // on the searching thread:
/// let results = try index.search(request, cancellation: cancellation)
/// // on another thread, when the user typed on:
/// cancellation.cancel()
/// ```
public final class SearchCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A flag not raised yet.
    public init() {}

    /// Raises the flag: the search using it, or about to, stops.
    public func cancel() {
        flag.store(true, ordering: .relaxed)
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        flag.load(ordering: .relaxed)
    }
}

extension SearchIndex {
    /// Runs a ranked prefix search that stops as soon as `cancellation` is raised, for callers
    /// that search on every keystroke and want only the newest text's results.
    ///
    /// The check is SQLite's progress handler on each connection the search uses (the ranking
    /// helper's included), so a search that was abandoned frees the index at once.
    ///
    /// An index the search needs and the database lacks is built first, without cancellation
    /// (see ``prepareIndexes(for:onProgress:)``): abandoning it would lose the work.
    ///
    /// - Throws: `CancellationError` when `cancellation` was raised before or during the search;
    ///   otherwise what ``search(_:)`` throws.
    public func search(_ request: SearchRequest, cancellation: SearchCancellation) throws
        -> SearchResults
    {
        guard !cancellation.isCancelled else { throw CancellationError() }
        try prepareIndexes(for: request)
        let shouldInterrupt: @Sendable () -> Bool = { cancellation.isCancelled }
        var interruptedHelper: RankingHelper?
        // The helper's connection belongs to its thread: the check is installed and removed by
        // work queued on that thread, around whatever the search gives it to do.
        defer { _ = interruptedHelper?.start { $0.removeInterruptCheck() } }
        do {
            return try database.interruptingStatements(when: shouldInterrupt) {
                try queryEngine(helper: { [unowned self] in
                    guard let helper = openRankingHelper else { return nil }
                    if interruptedHelper == nil {
                        _ = helper.start { $0.installInterruptCheck(shouldInterrupt) }
                        interruptedHelper = helper
                    }
                    return helper
                })
                .search(request)
            }
        } catch  where cancellation.isCancelled {
            throw CancellationError()
        }
    }
}
