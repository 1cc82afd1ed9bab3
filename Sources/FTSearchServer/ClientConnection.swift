import NIOCore
import Synchronization

/// What the server knows about one client's connection while a request runs on it: whether
/// the client has closed it, and what to do when it does (cancel the work for that request).
///
/// NIO sees a client's close even while no one reads the request stream: on Linux the socket
/// is watched for the peer's hang-up (`EPOLLRDHUP`), and NIO then reads to the end and, since
/// Hummingbird allows half-closed connections, sends `ChannelEvent.inputClosed` down the
/// pipeline (or `channelInactive` after a reset). ``ClientConnectionHandler`` hears those; a
/// route asks ``ServerContext/cancellingWhenClientLeaves(_:)`` to stop its work on them. A client
/// that shuts down only its sending side counts as gone, as in Go's `net/http`: browsers and
/// HTTP libraries never do that while they wait for an answer.
final class ClientConnection: Sendable {
    private struct State {
        var isClosed = false
        var onClose: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Whether the client has closed the connection.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Calls `action` (at once if the client has already gone) when the client closes the
    /// connection, until ``removeCloseAction()``. One request runs on a connection at a time,
    /// so there is one action at most.
    func onClose(_ action: @escaping @Sendable () -> Void) {
        let closed = state.withLock { state in
            if !state.isClosed { state.onClose = action }
            return state.isClosed
        }
        if closed { action() }
    }

    func removeCloseAction() {
        state.withLock { $0.onClose = nil }
    }

    /// The client has gone: runs the action, once.
    fileprivate func close() {
        let action = state.withLock { state in
            state.isClosed = true
            defer { state.onClose = nil }
            return state.onClose
        }
        action?()
    }

    /// The connection of each channel the server has open, for the request contexts (which
    /// Hummingbird builds from the channel alone).
    private static let open = Mutex<[ObjectIdentifier: ClientConnection]>([:])

    /// The connection `channel` carries, or nil if it is not one of the server's.
    static func of(_ channel: any Channel) -> ClientConnection? {
        open.withLock { $0[ObjectIdentifier(channel)] }
    }

    fileprivate static func register(_ connection: ClientConnection, for channel: any Channel) {
        open.withLock { $0[ObjectIdentifier(channel)] = connection }
    }

    fileprivate static func unregister(_ channel: any Channel) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}

/// The channel handler that tells a ``ClientConnection`` when its client has gone: it passes
/// every request part and event on unchanged.
final class ClientConnectionHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    private let connection = ClientConnection()

    func handlerAdded(context: ChannelHandlerContext) {
        ClientConnection.register(connection, for: context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        ClientConnection.unregister(context.channel)
        connection.close()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent { connection.close() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.close()
        context.fireChannelInactive()
    }
}
