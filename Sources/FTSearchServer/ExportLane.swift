import Dispatch
import FTSearchKit
import Synchronization
import HTTPTypes

/// Where exports run: a connection and a thread of their own each, apart from the searches'
/// pool (a client that reads an export slowly holds both for as long as it reads, and a
/// thread of the pool blocked so would hold up the pool's other work), and at most a few per
/// client address, so that slow exporters can neither stop the searches nor take every
/// export (docs/reliability.md: Fair sharing).
final class ExportLane: Sendable {
    let path: String
    let memoryLimits: ConnectionMemoryLimits
    let maximumExports: Int
    let maximumPerClient: Int
    private let running = Mutex<(total: Int, byClient: [String: Int])>((0, [:]))

    init(path: String, configuration: ServerConfiguration) {
        self.path = path
        memoryLimits = configuration.memoryLimits
        maximumExports = configuration.maximumExports
        maximumPerClient = configuration.maximumExportsPerClient
    }

    /// Runs `body` on a new thread (a serial Dispatch queue's, which never waits for the
    /// shared pool's threads) with a connection of its own that reads the database.
    func read<T: Sendable>(_ body: @escaping @Sendable (SearchIndex) throws -> T) async throws
        -> T
    {
        let path = self.path
        let memoryLimits = self.memoryLimits
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "ftsearch.export").async {
                continuation.resume(
                    with: Result {
                        let index = try SearchIndex(path: path, mode: .readOnly)
                        try index.limitMemory(memoryLimits)
                        return try body(index)
                    })
            }
        }
    }

    /// Takes a place for an export of `client` (its address; nil when unknown).
    ///
    /// - Returns: The place, to give back with ``release(_:)`` when the export ends.
    /// - Throws: 503 with `Retry-After` when every place, or every place of that client, is
    ///   taken.
    func enter(client: String?) throws(APIError) -> String {
        let key = client ?? ""
        let entered = running.withLock { running in
            guard running.total < maximumExports,
                running.byClient[key, default: 0] < maximumPerClient
            else { return false }
            running.total += 1
            running.byClient[key, default: 0] += 1
            return true
        }
        guard entered else {
            throw APIError(
                .serviceUnavailable, code: "busy",
                "too many exports are running (at most \(maximumExports), "
                    + "\(maximumPerClient) per client); try again when one has finished",
                headers: [.retryAfter: "5"])
        }
        return key
    }

    func release(_ key: String) {
        running.withLock { running in
            running.total -= 1
            running.byClient[key, default: 1] -= 1
            if running.byClient[key] == 0 { running.byClient[key] = nil }
        }
    }
}
