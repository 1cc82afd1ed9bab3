import Dispatch
import FTSearchSQLite
import FTSearchTestSupport
import Synchronization
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// ``RankingHelper/inHalves(_:here:theirs:)``: the other half is ranked exactly once, by the
/// helper when it is free, else by the caller, and never waits for a helper that is busy or
/// could not open its connection. ``RankingHelper/sharing(_:_:)``: the helper takes part when
/// it starts in time, is never waited for otherwise, and a helper that fails after it started
/// fails the whole.
@Suite(.timeLimit(.minutes(1))) struct RankingHelperTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        try index.importPeople([("Ann", "Andersen", "Acme")])
    }

    @Test func aFreeHelperRanksTheOtherHalfOnItsConnection() throws {
        let helper = RankingHelper(path: index.path)
        let started = DispatchSemaphore(value: 0)
        let (mine, theirs) = try helper.inHalves(index.database) {
            // This half lasts until the helper has taken the other.
            #expect(started.wait(timeout: .now() + 10) == .success)
            return "here"
        } theirs: { [caller = index.database] database in
            started.signal()
            return database === caller ? "caller" : "helper"
        }
        #expect(mine == "here")
        #expect(theirs == "helper")
    }

    /// The last reference to a helper may go in work on its own thread (a closure that held
    /// it, released there): it goes away there, without waiting for that thread from itself.
    @Test func aHelperReleasedLastOnItsOwnThreadGoesAway() throws {
        let done = DispatchSemaphore(value: 0)
        do {
            let helper = RankingHelper(path: index.path)
            let finished = Finished(done)
            _ = helper.start { [helper, finished] _ in
                withExtendedLifetime((helper, finished)) {}
                return 1
            }
        }
        // The work's closure, the helper's last owner, is released on the helper's thread;
        // its `Finished` then signals (a helper that waited for its own thread would hang).
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    /// Signals when it goes away.
    private final class Finished: Sendable {
        let semaphore: DispatchSemaphore
        init(_ semaphore: DispatchSemaphore) { self.semaphore = semaphore }
        deinit { semaphore.signal() }
    }

    @Test func aBusyHelpersHalfIsRankedHere() throws {
        let helper = RankingHelper(path: index.path)
        let release = DispatchSemaphore(value: 0)
        _ = helper.start { _ in release.wait() }
        var calls = 0
        let (_, theirs) = try helper.inHalves(index.database) {
            "here"
        } theirs: { [caller = index.database] database in
            calls += 1
            return database === caller ? "caller" : "helper"
        }
        #expect(theirs == "caller")
        release.signal()
        // The helper, free now, finds its half taken and does not rank it again.
        #expect(helper.start { _ in calls }.value == 1)
    }

    @Test func aHelperThatCannotOpenLeavesItsHalfHere() throws {
        let helper = RankingHelper(path: directory.path)  // a folder, not a database
        #expect(throws: SQLiteError.self) { try helper.start { _ in () }.wait() }
        let (_, theirs) = try helper.inHalves(index.database) {
            "here"
        } theirs: { [caller = index.database] database in
            database === caller ? "caller" : "helper"
        }
        #expect(theirs == "caller")
    }

    private struct Failed: Error {}

    @Test func aFreeHelperTakesPart() throws {
        #expect(try sharedWithAHelperThatStarts("caller") { "helper" } == ["caller", "helper"])
    }

    @Test func aHelperWhoseShareIsNilTakesPartWithNil() throws {
        #expect(try sharedWithAHelperThatStarts(Optional("caller")) { nil } == ["caller", nil])
    }

    @Test func aHelperThatFailsAfterItStartedFailsTheWhole() throws {
        #expect(try sharedWithAHelperThatStarts("caller") { throw Failed() } == nil)
    }

    /// What ``RankingHelper/sharing(_:_:)`` gives when the caller's share, `callersShare`,
    /// lasts until the helper has started its own, `helpersShare`.
    private func sharedWithAHelperThatStarts<T: Sendable>(
        _ callersShare: T, _ helpersShare: @escaping @Sendable () throws -> T
    ) throws -> [T]? {
        let helper = RankingHelper(path: index.path)
        let started = DispatchSemaphore(value: 0)
        return try helper.sharing(index.database) {
            [caller = ObjectIdentifier(index.database)] database in
            guard ObjectIdentifier(database) == caller else {
                started.signal()
                return try helpersShare()
            }
            #expect(started.wait(timeout: .now() + 10) == .success)
            return callersShare
        }
    }

    @Test func aBusyHelperTakesNoPart() throws {
        let helper = RankingHelper(path: index.path)
        let release = DispatchSemaphore(value: 0)
        _ = helper.start { _ in release.wait() }
        let calls = Mutex(0)
        let parts = try helper.sharing(index.database) {
            [caller = ObjectIdentifier(index.database)] database in
            calls.withLock { $0 += 1 }
            return ObjectIdentifier(database) == caller ? "caller" : "helper"
        }
        #expect(parts == ["caller"])
        release.signal()
        // The helper, free now, does not start the work it was too late for.
        _ = try helper.start { _ in () }.wait()
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func aHelperThatCannotOpenTakesNoPart() throws {
        let helper = RankingHelper(path: directory.path)  // a folder, not a database
        let parts = try helper.sharing(index.database) {
            [caller = ObjectIdentifier(index.database)] database in
            ObjectIdentifier(database) == caller ? "caller" : "helper"
        }
        #expect(parts == ["caller"])
    }
}

extension RankingHelper.Pending {
    /// The result, for work that cannot fail.
    fileprivate var value: T { try! wait() }
}
