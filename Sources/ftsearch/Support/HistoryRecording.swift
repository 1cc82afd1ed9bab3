import FTSearchKit
import FTSearchSQLite

extension CommandContext {
    /// Whether `FTSEARCH_NO_HISTORY` (set, not empty, not `0`) turns history recording off.
    var isHistoryDisabled: Bool {
        environment["FTSEARCH_NO_HISTORY"].map { !$0.isEmpty && $0 != "0" } ?? false
    }

    /// Records a search in the history of `index`. A database that cannot be written
    /// (read-only, say) costs the history entry and one warning, not the results.
    func recordSearch(
        _ text: String, kinds: Set<Kind>, resultCount: Int, in index: SearchIndex
    ) {
        do {
            try index.history.record(text, kinds: kinds, resultCount: resultCount)
        } catch {
            let reason =
                if let error = error as? ReadOnlyDatabaseError {
                    "\(error.path) is read-only (\(error.reason))"
                } else if let error = error as? SQLiteError, error.isDiskFull {
                    "no space left on device (\(error.message))"
                } else {
                    "\(error)"
                }
            standardError.print("warning: the search was not recorded in the history: \(reason)")
        }
    }
}
