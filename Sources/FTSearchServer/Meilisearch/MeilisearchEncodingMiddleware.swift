import Hummingbird

/// Bodies sent with `Content-Encoding: gzip` or `deflate` reach the routes decoded (the
/// server's channel decompresses them: see ``SearchServer``); this middleware refuses any other
/// encoding on the Meilisearch routes with a 415 `invalid_content_type` that names those two,
/// rather than reading compressed bytes as a body. (Meilisearch also takes `br`; no Brotli
/// decoder is among the packages ftsearch builds with.)
struct MeilisearchEncodingMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    static let decoded: Set<String> = ["gzip", "deflate", "identity"]

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let encoding = request.headers[.contentEncoding],
            !Self.decoded.contains(encoding.lowercased())
        {
            throw MeilisearchError(
                .unsupportedMediaType, code: "invalid_content_type",
                "The Content-Encoding `\(encoding)` is not supported: send the body "
                    + "uncompressed, or with gzip or deflate.")
        }
        return try await next(request, context)
    }
}
