import Hummingbird

/// With a key, every change (any method but GET, HEAD and OPTIONS) needs
/// `Authorization: Bearer KEY`: 401 without one, 403 with a wrong one. Reading needs none.
struct KeyMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let key: String

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        switch request.method {
        case .get, .head, .options:
            return try await next(request, context)
        default:
            break
        }
        switch Self.bearerKey(of: request, is: key) {
        case .missing:
            throw APIError(
                .unauthorized, code: "unauthorized",
                "this server needs a key for changes: send Authorization: Bearer KEY",
                headers: [.wwwAuthenticate: "Bearer"])
        case .wrong:
            throw APIError(.forbidden, code: "forbidden", "the key is wrong")
        case .right:
            return try await next(request, context)
        }
    }

    /// What a request's `Authorization: Bearer KEY` header says of `key`: the one check behind
    /// both APIs' key rules.
    enum BearerKey {
        case missing
        case wrong
        case right
    }

    /// Checks the request's bearer key against `key`, in constant time. The scheme's name is
    /// case-insensitive (`bearer KEY` too), as RFC 9110 has every scheme's.
    static func bearerKey(of request: Request, is key: String) -> BearerKey {
        guard let authorization = request.headers[.authorization] else { return .missing }
        let parts = authorization.utf8.split(
            separator: UInt8(ascii: " "), maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2,
            String(decoding: parts[0], as: UTF8.self).lowercased() == "bearer"
        else { return .wrong }
        let credentials = parts[1].drop { $0 == UInt8(ascii: " ") }
        return constantTimeEquals(Array(credentials), Array(key.utf8)) ? .right : .wrong
    }

    /// Compares without stopping at the first difference, so timing does not tell how much of
    /// a guess was right.
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
