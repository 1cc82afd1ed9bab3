import Hummingbird

/// A 405 with `Allow` for a request whose path is a route's but whose method none of that
/// path's routes take, whatever the method (`PUT`, `TRACE`, `QUERY`, one no RFC names): the
/// router finds no route for it and would answer 404. Added after the routes, it wraps only the
/// router's not-found answer.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// Each route path's segments (`:id` matches any one segment) and the methods it takes.
    private let paths: [(segments: [Substring], allow: String)]

    /// - Parameter methods: The methods each route path (`/api/people/:id`) takes.
    init(methods: [String: [HTTPRequest.Method]]) {
        paths = methods.map { path, allowed in
            (path.split(separator: "/"), allowed.map(\.rawValue).joined(separator: ", "))
        }
    }

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let segments = request.uri.path.split(separator: "/")
            guard let route = paths.first(where: { Self.matches(segments, $0.segments) }) else {
                throw error
            }
            throw APIError(
                .methodNotAllowed, code: "method_not_allowed",
                "\(request.uri.path) does not take \(request.method.rawValue) "
                    + "(it takes \(route.allow))",
                headers: [.allow: route.allow])
        }
    }

    private static func matches(_ segments: [Substring], _ pattern: [Substring]) -> Bool {
        segments.count == pattern.count
            && zip(segments, pattern).allSatisfy { $1.hasPrefix(":") || $0 == $1 }
    }
}
