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
        switch KeyMiddleware.bearerKey(of: request, is: key) {
        case .missing:
            throw MeilisearchError(
                .unauthorized, code: "missing_authorization_header",
                "The Authorization header is missing. It must use the bearer authorization "
                    + "method.", type: .auth)
        case .wrong:
            throw MeilisearchError(
                .forbidden, code: "invalid_api_key", "The provided API key is invalid.",
                type: .auth)
        case .right:
            return try await next(request, context)
        }
    }
}
