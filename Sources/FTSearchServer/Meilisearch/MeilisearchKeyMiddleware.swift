import Hummingbird

/// Meilisearch's key rule for its routes: with a master key, every request needs
/// `Authorization: Bearer KEY` (401 `missing_authorization_header` without one, 403
/// `invalid_api_key` with a wrong one). Without a key this middleware is not added, and an
/// `Authorization` header is ignored (the SDKs send `Bearer None`).
struct MeilisearchKeyMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let key: String

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
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
        return try await next(request, context)
    }
}
