import Hummingbird

/// The request context of every route: Hummingbird's core storage, the upload limit, and the
/// client's connection (to stop work for a client that has gone).
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on; nil for a channel the server did not set up.
    let client: ClientConnection?
    /// The client's IP address, when the channel has one.
    let clientAddress: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        client = ClientConnection.of(source.channel)
        clientAddress = source.channel.remoteAddress?.ipAddress
    }

    var maxUploadSize: Int { 1 << 20 }

    /// Runs `work`, cancelling it as soon as the client closes its connection (a search then
    /// stops within microseconds of SQLite work, see `SearchIndexPool.search`): a page that
    /// asks for every keystroke drops the previous request by closing it, and its search
    /// frees its reader for the next. The answer is then ``ClientGoneError``.
    func cancellingWhenClientLeaves<T: Sendable>(
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard let client else { return try await work() }
        let task = Task { try await work() }
        client.onClose { task.cancel() }
        defer { client.removeCloseAction() }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch is CancellationError where client.isClosed {
            throw ClientGoneError()
        }
    }
}

/// The client closed its connection before its answer was ready: logged as 499, the status
/// nginx gives it; the client never sees it.
struct ClientGoneError: Error {}
