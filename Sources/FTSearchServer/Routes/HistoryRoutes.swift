import FTSearchKit
import Hummingbird

/// `GET /api/history`, `POST /api/history`, `DELETE /api/history[/{id}]`: the search history,
/// written only when a client says a search was chosen (a page on Enter or on opening a
/// result), never by `/api/search` itself, so that search-as-you-type logs no prefixes.
extension Routes {
    func addHistoryRoutes(to routes: RouteTable) {
        routes.on("/api/history", .get) { request, _ in try await entries(request) }
        routes.on("/api/history", .post) { request, _ in try await record(request) }
        routes.on("/api/history", .delete) { request, _ in try await clear(request) }
        routes.on("/api/history/:id", .delete) { request, context in
            try await delete(request, id: context.parameters.get("id") ?? "")
        }
    }

    /// `{"entries":[...]}`, most recent first, as `ftsearch history --format json` prints them.
    private func entries(_ request: Request) async throws -> Response {
        let parameters = try QueryParameters(
            request, allowing: ["limit"], maximumSize: configuration.maximumQuerySize)
        let limit = try parameters.integer("limit", default: 50, in: 1...10_000)
        let entries = try await pool.read { try $0.history.entries(limit: limit) }
        return JSONResponse.make(
            .object([JSONMember(key: "entries", value: .array(entries.map(Self.jsonObject)))]))
    }

    static func jsonObject(for entry: HistoryEntry) -> JSONValue {
        JSONResponse.object([
            "id": .integer(entry.id),
            "text": .string(entry.text),
            "kind": .string(entry.kinds.name),
            "count": .integer(entry.useCount),
            "result_count": .integer(entry.resultCount),
            "first_used": .string(entry.firstUsed.secondsDescription),
            "last_used": .string(entry.lastUsed.secondsDescription),
        ])
    }

    /// `{"text":"ann","kind":"all"}`: records that search, with the number of results it has
    /// now; answers 201 with the entry.
    private func record(_ request: Request) async throws -> Response {
        _ = try QueryParameters(request, allowing: [], maximumSize: configuration.maximumQuerySize)
        let body = try await bodies.jsonObject(request)
        var text: String?
        var kinds: Set<Kind> = .all
        for member in body {
            switch (member.key, member.value) {
            case ("text", .string(let value)): text = value
            case ("kind", .string(let value)):
                guard let value = Set<Kind>(name: value) else {
                    throw APIError.badRequest("kind must be people, animals or all")
                }
                kinds = value
            case ("text", _), ("kind", _):
                throw APIError.badRequest("\(member.key) must be a string")
            default:
                throw APIError.badRequest("unknown member '\(member.key)' (text, kind)")
            }
        }
        guard let text, !text.allSatisfy(\.isWhitespace) else {
            throw APIError.badRequest("text must be a non-empty string")
        }
        let chosen = kinds
        let found = try await pool.search(SearchRequest(text: text, kinds: chosen, limit: 0))
        let entry = try await pool.write { index -> HistoryEntry? in
            let history = try index.history
            try history.record(text, kinds: chosen, resultCount: found.total)
            return try history.entries(limit: 1).first
        }
        guard let entry else { throw APIError.badRequest("text has nothing to search for") }
        return JSONResponse.make(Self.jsonObject(for: entry), status: .created)
    }

    private func delete(_ request: Request, id text: String) async throws -> Response {
        _ = try QueryParameters(request, allowing: [], maximumSize: configuration.maximumQuerySize)
        guard let id = Int64(text) else {
            throw APIError.notFound("no history entry with id \(text)")
        }
        try await pool.write { try $0.history.delete(ids: [id]) }
        return JSONResponse.make(JSONResponse.object(["deleted": .integer(1)]))
    }

    private func clear(_ request: Request) async throws -> Response {
        _ = try QueryParameters(request, allowing: [], maximumSize: configuration.maximumQuerySize)
        let deleted = try await pool.write { try $0.history.clear() }
        return JSONResponse.make(JSONResponse.object(["deleted": .integer(deleted)]))
    }
}
