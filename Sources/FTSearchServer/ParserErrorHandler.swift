import FTSearchKit
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request the HTTP parser refuses (a request line that is not HTTP, raw bytes in
/// the target, a head over 80 KiB) with the API's JSON error,
/// `{"error":{"code":"bad_request","message":"..."}}`, and closes the connection.
///
/// Hummingbird answers those itself, with a bodiless 400, before any route or middleware sees
/// the request; this handler sits between NIO's HTTP codec and Hummingbird and answers first
/// when no request of the connection is waiting for its answer. When one is (the parser failed
/// in the middle of a body), the error goes on to Hummingbird, which must end that answer.
final class ParserErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Requests whose head arrived and whose answer has not ended.
    private var unanswered = 0
    private var hasAnswered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { unanswered += 1 }
        context.fireChannelRead(data)
    }

    /// Whether the answer being written says `Connection: close`.
    private var closesAfterAnswer = false

    /// Passes the answer on; an answer that says `Connection: close` (CONNECT's) closes the
    /// connection once written, which Hummingbird would otherwise keep reading.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            closesAfterAnswer = head.headerFields[.connection]?.lowercased() == "close"
        case .end:
            unanswered -= 1
            if closesAfterAnswer {
                let boundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
                let written = context.eventLoop.makePromise(of: Void.self)
                written.futureResult.cascade(to: promise)
                context.writeAndFlush(data, promise: written)
                written.futureResult.whenComplete { _ in boundContext.value.close(promise: nil) }
                return
            }
        case .body:
            break
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, unanswered == 0 else {
            context.fireErrorCaught(error)
            return
        }
        guard !hasAnswered else { return }
        hasAnswered = true
        let body =
            JSONValue.object([
                JSONMember(
                    key: "error",
                    value: .object([
                        JSONMember(key: "code", value: .string("bad_request")),
                        JSONMember(
                            key: "message",
                            value: .string("the request is not valid HTTP: \(error)")),
                    ]))
            ]).jsonText + "\n"
        let head = HTTPResponse(
            status: .badRequest,
            headerFields: [
                .contentType: "application/json; charset=utf-8", .connection: "close",
                .contentLength: String(body.utf8.count),
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(string: body))), promise: nil)
        // The future completes on the channel's event loop, where the context may be used.
        let boundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            boundContext.value.close(promise: nil)
        }
    }
}
