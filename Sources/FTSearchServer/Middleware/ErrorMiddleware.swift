import Hummingbird
import Logging
import NIOHTTP1

/// Turns every error a route or Hummingbird throws into the one JSON error shape (through
/// ``APIError``, or `answer`'s shape), and logs the details of unexpected ones, which the
/// answer never shows.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let logger: Logger
    /// The answer to an error: the native API's shape unless given another (Meilisearch's).
    var answer: @Sendable (any Error) -> any HTTPResponseError = { APIError($0) }

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPParserError {
            // The request is broken mid-stream: Hummingbird answers 400 and closes the connection.
            throw error
        } catch {
            let answer = self.answer(error)
            if answer.status == .internalServerError {
                logger.error(
                    "\(request.method) \(request.uri.path) failed: \(String(describing: error))")
            }
            return try answer.response(from: request, context: context)
        }
    }
}
