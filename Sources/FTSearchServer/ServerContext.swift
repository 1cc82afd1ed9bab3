import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core storage, the upload limit, and the
/// client's connection (to stop work for a client that has gone).
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    var maxUploadSize: Int { 1 << 20 }

    /// Runs `work`, cancelling it when the client closes its connection first (looked at every
    /// 20 ms, so a quick request costs one timer that never fires).
    func cancellingWhenClientLeaves<T: Sendable>(
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let channel = self.channel
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                while channel.isActive { try await Task.sleep(for: .milliseconds(20)) }
                return nil
            }
            let first = try await group.next()
            group.cancelAll()
            guard case .some(.some(let value)) = first else { throw CancellationError() }
            return value
        }
    }
}
