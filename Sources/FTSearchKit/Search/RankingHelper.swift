import Dispatch
import FTSearchSQLite

/// A second connection to the same database, on its own thread, that ranks half of a large
/// table's rowid range while the caller's connection ranks the other half.
///
/// Ranking one short prefix reads every match's hits and most matches' sizes, in rowid order;
/// FTS5 can restrict a MATCH to a rowid range, so the halves are independent and merge exactly
/// (see ``FTS5RankCollector/absorb(_:)``). The caller checks that no other connection
/// committed while the halves ran (`PRAGMA data_version`), so both read the same database.
final class RankingHelper {
    let database: Database
    private let queue = DispatchQueue(label: "ftsearch.ranking")

    init(path: String, memoryLimits: ConnectionMemoryLimits? = nil) throws {
        database = try SearchIndex.openAdditionalConnection(path: path, memoryLimits: memoryLimits)
    }

    /// Starts `work` on the helper's thread with its connection; ``Pending/wait()`` for the result.
    func start<T>(_ work: @escaping (Database) throws -> T) -> Pending<T> {
        let pending = Pending<T>()
        let job = UncheckedSendable((database, work))
        pending.group.enter()
        queue.async {
            pending.result = Result { try job.value.1(job.value.0) }
            pending.group.leave()
        }
        return pending
    }

    /// The result of work started on the helper.
    final class Pending<T>: @unchecked Sendable {
        fileprivate let group = DispatchGroup()
        fileprivate var result: Result<T, any Error>?

        /// Waits for the work to finish; returns its result or throws its error.
        func wait() throws -> T {
            group.wait()
            return try result!.get()
        }
    }

    /// Values handed to the helper's thread; only one thread uses them at a time.
    private struct UncheckedSendable<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}

extension RankingHelper {
    /// Whether a search index has its helper.
    enum Slot {
        /// No search has asked for one yet.
        case notNeededYet
        /// A search asked for one: the next will open it.
        case wanted
        case open(RankingHelper)
        /// It could not be opened; searches use one connection.
        case unavailable
    }
}

extension SearchIndex {
    /// The ranking helper, if this index has one. Opening a connection costs about as much as
    /// the parallel halves save on one search, so the first search that could use the helper
    /// goes without and the second opens it: a process that searches once never pays for it.
    var openRankingHelper: RankingHelper? {
        switch rankingHelper {
        case .open(let helper):
            return helper
        case .unavailable:
            return nil
        case .notNeededYet:
            rankingHelper = .wanted
            return nil
        case .wanted:
            // A second connection to an in-memory or URI path could open another database.
            guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:"),
                let helper = try? RankingHelper(path: path, memoryLimits: memoryLimits)
            else {
                rankingHelper = .unavailable
                return nil
            }
            rankingHelper = .open(helper)
            return helper
        }
    }
}
