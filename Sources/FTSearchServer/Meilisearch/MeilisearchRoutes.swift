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
    let settings: MeilisearchSettingsStore
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
        settings = MeilisearchSettingsStore(databasePath: configuration.databasePath)
    }

    /// Meilisearch routes that ftsearch does not have; each answers a 4xx that says so.
    static let unsupportedRoutes = [
        "/keys", "/keys/**", "/dumps", "/snapshots", "/swap-indexes", "/batches", "/batches/**",
        "/experimental-features", "/network", "/metrics", "/logs/**", "/export",
        "/indexes/:uid/settings/**",
        "/indexes/:uid/similar", "/indexes/:uid/documents/edit", "/indexes/:uid/**",
        "/tasks/:taskUid/**", "/webhooks", "/webhooks/**", "/dynamic-search-rules",
        "/dynamic-search-rules/**", "/render-template", "/chats", "/chats/**", "/multi-search/**",
        "/stats/**", "/version/**", "/dumps/**", "/snapshots/**", "/swap-indexes/**",
        "/experimental-features/**", "/network/**", "/metrics/**", "/export/**",
    ]

    /// Adds the routes, in a group with the Meilisearch key rule and error shape. Call it
    /// before the native key middleware is added, which must not apply to these routes.
    func add(to router: Router<ServerContext>) {
        let group = router.group().add(
            middleware: ErrorMiddleware(logger: logger) { MeilisearchError($0) })
        group.add(middleware: MeilisearchEncodingMiddleware())
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
        on("/version", .get) { request, _ in
            _ = try parameters(of: request, allowing: [])
            return version()
        }
        on("/stats", .get) { request, _ in try await stats(request) }
        on("/indexes", .get) { request, _ in try await indexList(request) }
        on("/indexes", .post) { request, _ in try await createIndex(request) }
        on("/indexes/:uid", .get) { request, context in
            _ = try parameters(of: request, allowing: [])
            return JSONResponse.make(try await index(try Self.kind(context)))
        }
        on("/indexes/:uid", .patch) { request, context in
            try await updateIndex(request, try Self.kind(context))
        }
        on("/indexes/:uid", .delete) { request, context in
            let kind = try Self.kind(context)
            _ = try parameters(of: request, allowing: [])
            // As Meilisearch answers a deletion that fails: the task is accepted, then fails.
            return try recordIndexTask(
                kind, type: "indexDeletion",
                error: .invalid(
                    "index_not_deletable",
                    "ftsearch's two indexes, people and animals, cannot be deleted; their "
                        + "documents can (DELETE /indexes/\(kind.rawValue)/documents)."),
                details: ["deletedDocuments": .integer(0)])
        }
        on("/indexes/:uid/stats", .get) { request, context in
            let kind = try Self.kind(context)
            let sizes = try StatsOptions(try parameters(of: request, allowing: StatsOptions.names))
            return JSONResponse.make(try await indexStats(kind, sizes))
        }
        addSearchRoutes(on)
        addDocumentRoutes(on)
        addTaskRoutes(on)
        addSettingsRoutes(on)
        addFacetSearchRoutes(on)
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
        + "/indexes/{uid}/documents, /indexes/{uid}/facet-search, "
        + "/indexes/{uid}/settings (displayed, searchable, filterable "
        + "and sortable attributes, faceting, pagination) and /tasks, for the indexes people "
        + "and animals."

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

    private func stats(_ request: Request) async throws -> Response {
        let sizes = try StatsOptions(try parameters(of: request, allowing: StatsOptions.names))
        let statistics = try await pool.read { try $0.statistics() }
        var indexes: [JSONMember] = []
        var last: Timestamp?
        for kind in Kind.allCases {
            indexes.append(JSONMember(key: kind.rawValue, value: try await indexStats(kind, sizes)))
            if let finished = tasks.lastFinished(on: kind.rawValue) {
                last = max(last ?? finished, finished)
            }
        }
        return JSONResponse.make(
            JSONResponse.object([
                "databaseSize": sizes.size(statistics.sizeInBytes),
                "usedDatabaseSize": sizes.size(statistics.sizeInBytes),
                "lastUpdate": .text(last?.description),
                "indexes": .object(indexes),
            ]))
    }

    /// `numberOfDocuments`; `rawDocumentDbSize` and `avgDocumentSize` (the documents' bytes
    /// as JSON, all and on average); `isIndexing` (always false: a write is indexed before it
    /// is answered); no embeddings; `fieldDistribution` (how many documents have each field);
    /// `indexSize` and `usedIndexSize` (the pages of the index's tables in the file, and their
    /// bytes in use: ``SearchIndex/tableSizes(of:)``), and with `showInternalDatabaseSizes`
    /// `internalDatabaseSizes`, those of each table.
    private func indexStats(_ kind: Kind, _ sizes: StatsOptions) async throws -> JSONValue {
        let (count, bytes, distribution, tables) = try await pool.read { index in
            var counts: [(String, Int)] = []
            var positions: [String: Int] = [:]
            var after: Int64?
            var count = 0
            var bytes = 0
            while true {
                let page = try Self.records(of: kind, in: index, after: after, limit: 1000)
                guard let last = page.last else { break }
                after = last.id
                count += page.count
                for record in page {
                    bytes += JSONValue.object(record.documentMembers).jsonText.utf8.count
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
            return (count, bytes, counts.sorted { $0.0 < $1.0 }, try index.tableSizes(of: kind))
        }
        let fields: KeyValuePairs<String, JSONValue> = [
            "numberOfDocuments": .integer(count),
            "rawDocumentDbSize": sizes.size(bytes),
            "avgDocumentSize": sizes.size(count == 0 ? 0 : bytes / count),
            "isIndexing": .bool(false),
            "numberOfEmbeddings": .integer(0),
            "numberOfEmbeddedDocuments": .integer(0),
            "fieldDistribution": .object(
                distribution.map { JSONMember(key: $0.0, value: .integer($0.1)) }),
            "indexSize": sizes.size(tables.reduce(0) { $0 + $1.bytes }),
            "usedIndexSize": sizes.size(tables.reduce(0) { $0 + $1.usedBytes }),
        ]
        var members = fields.map { JSONMember(key: $0.key, value: $0.value) }
        if sizes.showsInternalDatabaseSizes {
            members.append(
                JSONMember(
                    key: "internalDatabaseSizes",
                    value: .object(
                        tables.map { JSONMember(key: $0.name, value: sizes.size($0.bytes)) })))
        }
        return .object(members)
    }

    /// `uid`, `primaryKey`, and as `createdAt` the earliest of the first record's creation
    /// and the first task on the index, or else when the database file last changed; as
    /// `updatedAt` the last task's end, or else `createdAt`. Both are always times, as in
    /// Meilisearch.
    private func index(_ kind: Kind) async throws -> JSONValue {
        let first = try await pool.read { index in
            try Self.records(of: kind, in: index, after: nil, limit: 1).first
        }
        let created =
            [first?.createdAt, tasks.firstEnqueued(on: kind.rawValue)].compactMap { $0 }.min()
            ?? Timestamp.modificationTime(ofFileAt: configuration.databasePath) ?? Timestamp.now()
        let updated = max(tasks.lastFinished(on: kind.rawValue) ?? created, created)
        return JSONResponse.object([
            "uid": .string(kind.rawValue),
            "primaryKey": .string("id"),
            "createdAt": .string(created.description),
            "updatedAt": .string(updated.description),
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

    /// `POST /indexes`: `people` and `animals` exist already, so their creation is a task that
    /// fails with `index_already_exists`, as in Meilisearch; another uid is refused at once.
    private func createIndex(_ request: Request) async throws -> Response {
        _ = try parameters(of: request, allowing: [])
        var uid = ""
        var primaryKey: String?
        for member in try await bodies.jsonObject(request) {
            switch member.key {
            case "uid":
                uid = try MeilisearchSearchQuery.string(
                    member.value, code: "invalid_index_uid", name: "uid")
            case "primaryKey":
                primaryKey = try MeilisearchSearchQuery.optionalString(
                    member.value, code: "invalid_index_primary_key", name: "primaryKey")
            default:
                throw MeilisearchError.invalid(
                    "bad_request",
                    "Unknown field `\(member.key)`: expected one of `uid`, `primaryKey`.")
            }
        }
        guard let kind = Kind(rawValue: uid) else {
            throw MeilisearchError.invalid(
                "invalid_index_uid",
                "ftsearch serves exactly two indexes, people and animals (primary key id), and "
                    + "cannot create `\(uid)`.")
        }
        return try recordIndexTask(
            kind, type: "indexCreation",
            error: MeilisearchError(
                .conflict, code: "index_already_exists", "Index `\(uid)` already exists."),
            details: ["primaryKey": .text(primaryKey)])
    }

    /// `PATCH /indexes/{uid}`: a task that succeeds when it keeps the primary key `id`, and
    /// fails with `index_primary_key_already_exists` for another; a new uid is refused.
    private func updateIndex(_ request: Request, _ kind: Kind) async throws -> Response {
        _ = try parameters(of: request, allowing: [])
        var primaryKey: String?
        for member in try await bodies.jsonObject(request) {
            switch member.key {
            case "primaryKey":
                primaryKey = try MeilisearchSearchQuery.optionalString(
                    member.value, code: "invalid_index_primary_key", name: "primaryKey")
            case "uid":
                throw MeilisearchError.invalid(
                    "immutable_index_uid",
                    "ftsearch's indexes are people and animals: `\(kind.rawValue)` cannot be "
                        + "renamed.")
            default:
                throw MeilisearchError.invalid(
                    "bad_request",
                    "Unknown field `\(member.key)`: expected one of `primaryKey`, `uid`.")
            }
        }
        let error: MeilisearchError? =
            primaryKey == nil || primaryKey == "id"
            ? nil
            : .invalid(
                "index_primary_key_already_exists",
                "Index `\(kind.rawValue)` already has a primary key: `id`.")
        return try recordIndexTask(
            kind, type: "indexUpdate", error: error, details: ["primaryKey": .text(primaryKey)])
    }

    /// Records a finished task on `kind` and answers 202 with its receipt.
    private func recordIndexTask(
        _ kind: Kind, type: String, error: MeilisearchError?,
        details: KeyValuePairs<String, JSONValue>
    ) throws -> Response {
        let now = Timestamp.now()
        var task = MeilisearchTaskStore.Task(
            uid: 0, indexUid: kind.rawValue, type: type,
            status: error == nil ? "succeeded" : "failed",
            details: details.map { JSONMember(key: $0.key, value: $0.value) },
            error: error?.jsonObject ?? .null, enqueuedAt: now, startedAt: now,
            finishedAt: Timestamp.now())
        return accepted(&task)
    }

    /// The query string's parameters, only `names` allowed: another is a 400 `bad_request`,
    /// as Meilisearch refuses an unknown parameter.
    func parameters(of request: Request, allowing names: Set<String>) throws -> QueryParameters {
        try QueryParameters(request, allowing: names, maximumSize: configuration.maximumQuerySize)
    }

    // MARK: Generic over the model

    static func records(of kind: Kind, in index: SearchIndex, after: Int64?, limit: Int?) throws
        -> [AnyRecord]
    {
        switch kind {
        case .people: try index.findAll(Person.self, after: after, limit: limit).map(\.anyRecord)
        case .animals: try index.findAll(Animal.self, after: after, limit: limit).map(\.anyRecord)
        }
    }

    static func record(of kind: Kind, id: Int64, in index: SearchIndex) throws -> AnyRecord? {
        switch kind {
        case .people: try index.find(Person.self, id: id)?.anyRecord
        case .animals: try index.find(Animal.self, id: id)?.anyRecord
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
