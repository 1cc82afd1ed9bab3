import FTSearchKit
import Hummingbird

/// `GET /api/stats` (what `ftsearch stats --format json` prints) and `GET /health`
/// (`{"status":"available"}`, the answer Meilisearch's SDKs expect from it; 503 with
/// `"unavailable"` and the reason once the database file was deleted or replaced).
extension Routes {
    func addStatusRoutes(to routes: RouteTable) {
        routes.on("/api/stats", .get) { request, _ in
            _ = try QueryParameters(
                request, allowing: [], maximumSize: configuration.maximumQuerySize)
            let statistics = try await pool.read { try $0.statistics() }
            // Where the file lives is for those who hold the key; others see its name.
            let holdsKey =
                configuration.apiKey.map { KeyMiddleware.bearerKey(of: request, is: $0) == .right }
                ?? false
            let path =
                holdsKey
                ? statistics.path
                : String(statistics.path.split(separator: "/").last ?? "")
            return JSONResponse.make(
                JSONResponse.object([
                    "database": .string(path),
                    "schema_version": .integer(statistics.schemaVersion),
                    "sqlite_version": .string(statistics.sqliteVersion),
                    "size_bytes": .integer(statistics.sizeInBytes),
                    "counts": JSONResponse.object([
                        "people": .integer(statistics.people),
                        "animals": .integer(statistics.animals),
                        "history": .integer(statistics.historyEntries),
                    ]),
                    "read_only": .bool(pool.readOnlyReason != nil),
                ]))
        }
        routes.on("/health", .get) { _, _ in
            if let problem = file.problem() {
                return JSONResponse.make(
                    JSONResponse.object([
                        "status": .string("unavailable"), "reason": .string(problem),
                    ]), status: .serviceUnavailable)
            }
            try await pool.read { index in _ = try index.schemaVersion }
            return JSONResponse.make(JSONResponse.object(["status": .string("available")]))
        }
    }
}
