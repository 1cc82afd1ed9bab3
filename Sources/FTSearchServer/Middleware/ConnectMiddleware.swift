import Hummingbird

/// CONNECT (a proxy's method, which no route takes) gets 405 at once, and the connection is
/// closed (``ParserErrorHandler`` closes it after an answer that says `Connection: close`):
/// the server is no proxy, and a client that sent it has nothing else to say on that
/// connection. The answer is the JSON error, but SwiftNIO's HTTP/1 encoder sends no body after
/// the head of any answer to CONNECT, so clients see the status alone.
struct ConnectMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .connect else { return try await next(request, context) }
        throw APIError(
            .methodNotAllowed, code: "method_not_allowed",
            "this server is not a proxy: CONNECT is not taken here",
            headers: [.connection: "close"])
    }
}
