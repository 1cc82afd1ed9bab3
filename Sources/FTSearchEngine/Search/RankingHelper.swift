import Dispatch
package import FTSearchSQLite
import Synchronization

/// A second connection to the same database, on its own thread, that ranks part of a large
/// table's matches while the caller's connection ranks the rest.
///
/// Ranking one short prefix reads every match's hits and most matches' sizes; the parts (of
/// the rowid range, or of the index's segments) are independent and merge exactly (see
/// ``FTS5RankCollector/absorb(_:)``). The caller checks that both read the same version of
/// the database.
///
/// The connection opens on the helper's thread, so creating a helper costs the caller
/// nothing; ``inHalves(_:here:theirs:)`` lets whichever connection is free first rank the
/// other half, and ``sharing(_:_:)`` lets both take shares of one work until none is left, so
/// no search waits for the opening, and a small search ends before the helper would have
/// started.
package final class RankingHelper {
    private let queue = DispatchQueue(label: "ftsearch.ranking")
    /// The helper's connection, or why it did not open; used on the helper's thread only.
    private let connection = Connection()

    private final class Connection: @unchecked Sendable {
        var opened: Result<Database, SQLiteError>?
    }

    /// Starts opening a connection to `path` on the helper's thread.
    package init(path: String, memoryLimits: ConnectionMemoryLimits? = nil) {
        queue.setSpecific(key: Self.onHelperThread, value: true)
        let connection = connection
        queue.async {
            connection.opened = Result { () throws(SQLiteError) in
                try Database.openAdditionalConnection(path: path, memoryLimits: memoryLimits)
            }
        }
    }

    deinit {
        // Queued work ends, and the connection closes on its thread, before the helper is gone;
        // when the last reference goes in work on that thread, it closes there and then
        // (waiting for the thread from itself would never end).
        let connection = connection
        if DispatchQueue.getSpecific(key: Self.onHelperThread) != nil {
            connection.opened = nil
        } else {
            queue.sync { connection.opened = nil }
        }
    }

    /// Set on the helper's queue, to tell its thread from the others.
    private static let onHelperThread = DispatchSpecificKey<Bool>()

    /// Starts `work` on the helper's thread with its connection, once open; ``Pending/wait()``
    /// for the result, or the error opening it threw.
    package func start<T>(_ work: @escaping (Database) throws -> T) -> Pending<T> {
        let pending = Pending<T>()
        let job = UncheckedSendable((connection, work))
        pending.group.enter()
        queue.async {
            // Opening was queued first, and the helper outlives its queued work.
            pending.result = Result { try job.value.1(job.value.0.opened!.get()) }
            pending.group.leave()
        }
        return pending
    }

    /// Runs `here` on the caller's connection `database` and `theirs` on the helper's, or
    /// `theirs` on `database` too when the helper has not started it by the time `here` is
    /// done. The second value is nil when the helper failed: the caller then ranks without it.
    func inHalves<T>(
        _ database: Database, here: () throws -> T, theirs: @escaping (Database) throws -> T
    ) throws -> (T, T?) {
        let claim = Claim()
        let pending = start { database -> T? in
            try claim.take() ? theirs(database) : nil
        }
        let mine = try here()
        if claim.take() { return (mine, try theirs(database)) }
        return (mine, (try? pending.wait()) ?? nil)
    }

    /// Runs `work` on the caller's connection `database` and, at the same time, on the
    /// helper's, each taking its share from something `work` shares between them (see
    /// ``SegmentClaims``). The helper takes part only if it starts before the caller's `work`
    /// is done (a busy or sleeping helper is not waited for). The results of the connections
    /// that took part, the caller's first; nil when the helper failed after it started (its
    /// share is then lost, and the caller ranks otherwise).
    func sharing<T>(_ database: Database, _ work: @escaping @Sendable (Database) throws -> T)
        throws -> [T]?
    {
        let claim = Claim()
        let pending = start { database -> T? in
            try claim.take() ? work(database) : nil
        }
        let mine = try work(database)
        // Not started (or its connection did not open): it has no share.
        if claim.take() { return [mine] }
        // It took the claim, so it ran `work` (its result is not nil) unless it threw.
        guard let theirs = try? pending.wait() else { return nil }
        return [mine, theirs]
    }

    /// Taken once, by whichever thread asks first.
    private final class Claim: Sendable {
        private let isTaken = Atomic(false)
        func take() -> Bool {
            isTaken.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        }
    }

    /// The result of work started on the helper.
    package final class Pending<T>: @unchecked Sendable {
        fileprivate let group = DispatchGroup()
        fileprivate var result: Result<T, any Error>?

        /// Waits for the work to finish; returns its result or throws its error.
        package func wait() throws -> T {
            group.wait()
            return try result!.get()
        }
    }
}

extension RankingHelper {
    /// Whether a search index has its helper.
    package enum Slot {
        /// No search has asked for one yet.
        case notNeededYet
        case open(RankingHelper)
        /// The database cannot have one; searches use one connection.
        case unavailable
    }
}
