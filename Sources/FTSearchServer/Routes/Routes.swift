import FTSearchKit
import Hummingbird

/// What every route works with: the database pool, the exports' lane, the configuration and
/// the body reader.
/// Each file in this folder adds one group of routes to the router.
struct Routes: Sendable {
    let pool: SearchIndexPool
    let configuration: ServerConfiguration
    let bodies: RequestBodies
    /// Where exports run.
    let exports: ExportLane
    /// Whether the file served is still the one at its path.
    let file: DatabaseFile

    init(
        pool: SearchIndexPool, exports: ExportLane, file: DatabaseFile,
        configuration: ServerConfiguration
    ) {
        self.pool = pool
        self.exports = exports
        self.file = file
        self.configuration = configuration
        bodies = RequestBodies(
            maximumBodySize: configuration.maximumBodySize, timeout: configuration.bodyTimeout)
    }

    /// Adds every route, then a 405 with `Allow` for any other method on their paths.
    func add(to router: Router<ServerContext>) {
        var methods: [String: [HTTPRequest.Method]] = [:]
        let table = RouteTable(router: router) { path, method in
            methods[path, default: []].append(method)
        }
        addSearchRoutes(to: table)
        addHistoryRoutes(to: table)
        addRecordRoutes(to: table)
        addTransferRoutes(to: table)
        addStatusRoutes(to: table)
        addPageRoutes(to: table)
        router.add(middleware: MethodNotAllowedMiddleware(methods: methods))
    }

    /// Kind names in paths: `people`, `animals`.
    static func kind(named name: String) throws(APIError) -> Kind {
        guard let kind = Kind(rawValue: name) else {
            throw .notFound("no such kind '\(name)' (people, animals)")
        }
        return kind
    }
}

/// The router, remembering which methods each path takes; each GET route answers HEAD too.
struct RouteTable {
    let router: Router<ServerContext>
    let record: (String, HTTPRequest.Method) -> Void

    init(
        router: Router<ServerContext>,
        record: @escaping (String, HTTPRequest.Method) -> Void
    ) {
        self.router = router
        self.record = record
    }

    func on(
        _ path: String, _ method: HTTPRequest.Method,
        _ handler: @escaping @Sendable (Request, ServerContext) async throws -> Response
    ) {
        record(path, method)
        router.on(RouterPath(path), method: method, use: handler)
        if method == .get {
            record(path, .head)
            router.on(RouterPath(path), method: .head, use: HeadRequests.handler(for: handler))
        }
    }
}
