import FTSearchKit
import Hummingbird

/// `GET /tasks/{uid}` and `GET /tasks` (newest first, `limit`/`from` paging, filtered by
/// `indexUids`, `statuses`, `types` or `uids`).
extension MeilisearchRoutes {
    func addTaskRoutes(_ on: AddRoute) {
        on("/tasks/:taskUid", .get) { _, context in
            let text = context.parameters.get("taskUid") ?? ""
            guard let uid = Int(text), uid >= 0 else {
                throw MeilisearchError.invalid(
                    "invalid_task_uids", "Task uid `\(text)` is invalid: it must be an integer.")
            }
            guard let task = tasks.task(uid) else {
                throw MeilisearchError(
                    .notFound, code: "task_not_found", "Task `\(uid)` not found.")
            }
            return JSONResponse.make(task)
        }
        on("/tasks", .get) { request, _ in
            let parameters = try QueryParameters(
                request, allowing: ["limit", "from", "indexUids", "statuses", "types", "uids"],
                maximumSize: configuration.maximumQuerySize)
            let limit = try parameters.integer("limit", default: 20, in: 0...Int(Int32.max))
            let from: Int? =
                parameters["from"] == nil
                ? nil : try parameters.integer("from", default: 0, in: 0...Int.max)
            func set(_ name: String) -> Set<String>? {
                parameters[name].map(Routes.list).flatMap { $0.contains("*") ? nil : Set($0) }
            }
            let indexUids = set("indexUids")
            let statuses = set("statuses")
            let types = set("types")
            let uids = set("uids")
            let page = tasks.tasks(limit: limit, from: from) { uid, index, status, type in
                (indexUids?.contains(index) ?? true) && (statuses?.contains(status) ?? true)
                    && (types?.contains(type) ?? true) && (uids?.contains(String(uid)) ?? true)
            }
            return JSONResponse.make(
                JSONResponse.object([
                    "results": .array(page.results),
                    "total": .integer(page.total),
                    "limit": .integer(limit),
                    "from": page.results.isEmpty ? .null : .integer(from ?? page.firstUid),
                    "next": page.next.map { .integer($0) } ?? .null,
                ]))
        }
        on("/tasks", .delete) { _, _ in
            throw MeilisearchError.invalid(
                "bad_request",
                "ftsearch keeps every task: its writes finish before they are answered, so there "
                    + "is nothing to cancel or delete.")
        }
    }
}
