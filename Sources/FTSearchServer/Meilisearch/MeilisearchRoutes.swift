import FTSearchKit
import Hummingbird
import Logging

/// The Meilisearch-compatible API (docs/meilisearch.md): two indexes, `people`
/// and `animals`, primary key `id`, at Meilisearch's own paths (`/indexes`, `/multi-search`,
/// `/tasks`, `/version`, `/stats`; `/health` is the native route, which answers
/// `{"status":"available"}` as Meilisearch's SDKs expect), so that its clients work unchanged
/// against `http://127.0.0.1:7700`. Its routes have their own middleware: Meilisearch's key
/// rule (every route needs the key when there is one) and error shape.
struct MeilisearchRoutes: Sendable {
    let pool: SearchIndexPool
    let configuration: ServerConfiguration
    let bodies: RequestBodies
    let tasks: MeilisearchTaskStore
    let logger: Logger
    let file: DatabaseFile

    init(
        pool: SearchIndexPool, file: DatabaseFile, configuration: ServerConfiguration,
        logger: Logger
    ) {
        self.pool = pool
        self.file = file
        self.logger = logger
        self.configuration = configuration
        bodies = RequestBodies(
            maximumBodySize: configuration.maximumBodySize, timeout: configuration.bodyTimeout)
        tasks = MeilisearchTaskStore(databasePath: configuration.databasePath)
    }

    /// Meilisearch routes that ftsearch does not have; each answers a 4xx that says so.
    static let unsupportedRoutes = [
        "/keys", "/keys/**", "/dumps", "/snapshots", "/swap-indexes", "/batches", "/batches/**",
        "/experimental-features", "/network", "/metrics", "/logs/**", "/export",
        "/indexes/:uid/settings", "/indexes/:uid/settings/**", "/indexes/:uid/facet-search",
        "/indexes/:uid/similar", "/indexes/:uid/documents/edit", "/tasks/cancel",
        "/indexes/:uid/**",
    ]

    /// Adds the routes, in a group with the Meilisearch key rule and error shape. Call it
    /// before the native key middleware is added, which must not apply to these routes.
    func add(to router: Router<ServerContext>) {
        let group = router.group().add(
            middleware: ErrorMiddleware(logger: logger) { MeilisearchError($0) })
        if let key = configuration.apiKey {
            group.add(middleware: MeilisearchKeyMiddleware(key: key))
        }
        group.add(middleware: BrowserGuardMiddleware(configuration: configuration))
        group.add(middleware: DatabaseFileMiddleware(file: file))
        var methods: [String: [HTTPRequest.Method]] = [:]
        func on(
            _ path: String, _ method: HTTPRequest.Method,
            _ handler: @escaping @Sendable (Request, ServerContext) async throws -> Response
        ) {
            methods[path, default: []].append(method)
            group.on(RouterPath(path), method: method, use: handler)
            if method == .get {
                group.on(RouterPath(path), method: .head, use: HeadRequests.handler(for: handler))
            }
        }
        on("/version", .get) { _, _ in version() }
        on("/stats", .get) { _, _ in try await stats() }
        on("/indexes", .get) { request, _ in try await indexList(request) }
        on("/indexes", .post) { request, _ in try await createIndex(request) }
        on("/indexes/:uid", .get) { _, context in
            JSONResponse.make(try await index(try Self.kind(context)))
        }
        for method in [HTTPRequest.Method.patch, .delete] {
            on("/indexes/:uid", method) { _, context in
                _ = try Self.kind(context)
                throw MeilisearchError.invalid(
                    "bad_request",
                    "ftsearch's two indexes, people and animals, cannot be changed or deleted.")
            }
        }
        on("/indexes/:uid/stats", .get) { _, context in
            JSONResponse.make(try await indexStats(try Self.kind(context)))
        }
        addSearchRoutes(on)
        addDocumentRoutes(on)
        addTaskRoutes(on)
        for path in Self.unsupportedRoutes {
            for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
                group.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw MeilisearchError.invalid(
                        "bad_request",
                        "ftsearch does not implement \(path.replacingParameters). "
                            + Self.supportedSummary)
                }
            }
        }
        let all: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]
        for (path, allowed) in methods {
            for method in all where !allowed.contains(method) {
                group.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw MeilisearchError(
                        .methodNotAllowed, code: "bad_request",
                        "\(path.replacingParameters) does not take \(method.rawValue) (it takes "
                            + allowed.map(\.rawValue).joined(separator: ", ") + ").")
                }
            }
        }
    }

    static let supportedSummary =
        "The Meilisearch-compatible routes are /health, /version, /stats, /indexes, "
        + "/indexes/{uid}, /indexes/{uid}/stats, /indexes/{uid}/search, /multi-search, "
        + "/indexes/{uid}/documents and /tasks, for the indexes people and animals."

    /// The index of the path: `people` or `animals`.
    static func kind(_ context: ServerContext) throws(MeilisearchError) -> Kind {
        try kind(named: context.parameters.get("uid") ?? "")
    }

    static func kind(named uid: String) throws(MeilisearchError) -> Kind {
        guard let kind = Kind(rawValue: uid) else { throw .indexNotFound(uid) }
        return kind
    }

    // MARK: Version, stats, indexes

    private func version() -> Response {
        JSONResponse.make(
            JSONResponse.object([
                // The build does not record its commit: SwiftPM has no step that could.
                "commitSha": .string("unknown"),
                "commitDate": .string("unknown"),
                "pkgVersion": .string(FTSearchVersion.current),
            ]))
    }

    private func stats() async throws -> Response {
        let statistics = try await pool.read { try $0.statistics() }
        var indexes: [JSONMember] = []
        var last: Timestamp?
        for kind in Kind.allCases {
            indexes.append(JSONMember(key: kind.rawValue, value: try await indexStats(kind)))
            if let finished = tasks.lastFinished(on: kind.rawValue) {
                last = max(last ?? finished, finished)
            }
        }
        return JSONResponse.make(
            JSONResponse.object([
                "databaseSize": .integer(statistics.sizeInBytes),
                "usedDatabaseSize": .integer(statistics.sizeInBytes),
                "lastUpdate": .text(last?.description),
                "indexes": .object(indexes),
            ]))
    }

    /// `numberOfDocuments`, `isIndexing` (always false: a write is indexed before it is
    /// answered) and `fieldDistribution` (how many documents have each field).
    private func indexStats(_ kind: Kind) async throws -> JSONValue {
        let (count, distribution) = try await pool.read { index in
            var counts: [(String, Int)] = []
            var positions: [String: Int] = [:]
            var after: Int64?
            var count = 0
            while true {
                let page = try Self.records(of: kind, in: index, after: after, limit: 1000)
                guard let last = page.last else { break }
                after = last.id
                count += page.count
                for record in page {
                    for member in record.documentMembers {
                        if let position = positions[member.key] {
                            counts[position].1 += 1
                        } else {
                            positions[member.key] = counts.count
                            counts.append((member.key, 1))
                        }
                    }
                }
            }
            return (count, counts.sorted { $0.0 < $1.0 })
        }
        return JSONResponse.object([
            "numberOfDocuments": .integer(count),
            "isIndexing": .bool(false),
            "fieldDistribution": .object(
                distribution.map { JSONMember(key: $0.0, value: .integer($0.1)) }),
        ])
    }

    /// `uid`, `primaryKey`, and as `createdAt` the creation time of the first record, as
    /// `updatedAt` the last task's end or else that record's change time.
    private func index(_ kind: Kind) async throws -> JSONValue {
        let first = try await pool.read { index in
            try Self.records(of: kind, in: index, after: nil, limit: 1).first
        }
        let updated = tasks.lastFinished(on: kind.rawValue) ?? first?.updatedAt
        return JSONResponse.object([
            "uid": .string(kind.rawValue),
            "primaryKey": .string("id"),
            "createdAt": .text(first?.createdAt?.description),
            "updatedAt": .text(updated?.description),
        ])
    }

    private func indexList(_ request: Request) async throws -> Response {
        let parameters = try QueryParameters(
            request, allowing: ["offset", "limit"], maximumSize: configuration.maximumQuerySize)
        let offset = try parameters.integer("offset", default: 0, in: 0...Int(Int32.max))
        let limit = try parameters.integer("limit", default: 20, in: 0...Int(Int32.max))
        var results: [JSONValue] = []
        for kind in Kind.allCases.dropFirst(offset).prefix(limit) {
            results.append(try await index(kind))
        }
        return JSONResponse.make(
            JSONResponse.object([
                "results": .array(results),
                "offset": .integer(offset),
                "limit": .integer(limit),
                "total": .integer(Kind.allCases.count),
            ]))
    }

    private func createIndex(_ request: Request) async throws -> Response {
        let members = try await bodies.jsonObject(request)
        let uid = members.first { $0.key == "uid" }?.value.scalarText ?? ""
        if Kind(rawValue: uid) != nil {
            throw MeilisearchError(
                .conflict, code: "index_already_exists", "Index `\(uid)` already exists.")
        }
        throw MeilisearchError.invalid(
            "invalid_index_uid",
            "ftsearch serves exactly two indexes, people and animals (primary key id), and "
                + "cannot create `\(uid)`.")
    }

    // MARK: Generic over the model

    static func records(of kind: Kind, in index: SearchIndex, after: Int64?, limit: Int?) throws
        -> [Record]
    {
        switch kind {
        case .people: try index.findAll(Person.self, after: after, limit: limit).map(\.record)
        case .animals: try index.findAll(Animal.self, after: after, limit: limit).map(\.record)
        }
    }

    static func record(of kind: Kind, id: Int64, in index: SearchIndex) throws -> Record? {
        switch kind {
        case .people: try index.find(Person.self, id: id)?.record
        case .animals: try index.find(Animal.self, id: id)?.record
        }
    }
}

extension String {
    /// `/indexes/:uid/settings` → `/indexes/{uid}/settings`.
    fileprivate var replacingParameters: String {
        split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
        }.joined(separator: "/")
    }
}
