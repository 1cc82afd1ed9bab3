import Hummingbird
import Logging
import NIOHTTP1

/// Meilisearch's rules for its routes: with a master key, every request needs
/// `Authorization: Bearer KEY` (401 `missing_authorization_header` without one, 403
/// `invalid_api_key` with a wrong one); without a key, the header is ignored (the SDKs send
/// `Bearer None`). Every error becomes Meilisearch's error shape; the details of unexpected
/// ones go to the log only.
struct MeilisearchMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let key: String?
    let logger: Logger

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            if let key { try Self.check(request, key: key) }
            return try await next(request, context)
        } catch let error as HTTPParserError {
            throw error
        } catch {
            let answer = MeilisearchError(error)
            if answer.status == .internalServerError {
                logger.error(
                    "\(request.method) \(request.uri.path) failed: \(String(describing: error))")
            }
            return try answer.response(from: request, context: context)
        }
    }

    private static func check(_ request: Request, key: String) throws(MeilisearchError) {
        guard let authorization = request.headers[.authorization] else {
            throw MeilisearchError(
                .unauthorized, code: "missing_authorization_header",
                "The Authorization header is missing. It must use the bearer authorization "
                    + "method.", type: .auth)
        }
        let prefix = "Bearer "
        guard authorization.hasPrefix(prefix),
            KeyMiddleware.constantTimeEquals(
                Array(authorization.utf8.dropFirst(prefix.utf8.count)), Array(key.utf8))
        else {
            throw MeilisearchError(
                .forbidden, code: "invalid_api_key", "The provided API key is invalid.",
                type: .auth)
        }
    }
}
