import FTSearchKit
import Hummingbird

/// `GET /tasks/{uid}`; `GET /tasks` (newest first, or oldest first with `reverse=true`;
/// `limit`/`from` paging; ``MeilisearchTaskFilter``'s filters); `DELETE /tasks` (deletes the
/// records of the matching tasks, as a `taskDeletion` task); and `POST /tasks/cancel` (a
/// `taskCancelation` task that cancels nothing: every task has finished before its receipt).
extension MeilisearchRoutes {
    func addTaskRoutes(_ on: AddRoute) {
        on("/tasks/:taskUid", .get) { request, context in
            _ = try QueryParameters(
                request, allowing: [], maximumSize: configuration.maximumQuerySize)
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
                request, allowing: Set(MeilisearchTaskFilter.names + ["limit", "from", "reverse"]),
                maximumSize: configuration.maximumQuerySize)
            let filter = try MeilisearchTaskFilter(parameters)
            let limit = try Self.taskParameter(parameters, "limit", default: 20)
            let from = try parameters["from"].map { _ in
                try Self.taskParameter(parameters, "from", default: 0)
            }
            let reverse: Bool
            switch parameters["reverse"] {
            case nil, "false": reverse = false
            case "true": reverse = true
            case let text?:
                throw MeilisearchError.invalid(
                    "invalid_task_reverse",
                    "Invalid value in parameter `reverse`: could not parse `\(text)` as a boolean.")
            }
            let page = tasks.tasks(
                limit: limit, from: from, reverse: reverse, where: filter.matches)
            return JSONResponse.make(
                JSONResponse.object([
                    "results": .array(page.results),
                    "total": .integer(page.total),
                    "limit": .integer(limit),
                    "from": page.results.isEmpty ? .null : .integer(from ?? page.firstUid),
                    "next": page.next.map { .integer($0) } ?? .null,
                ]))
        }
        on("/tasks", .delete) { request, _ in
            let (filter, original) = try taskFilter(of: request, for: "delete")
            let enqueuedAt = Timestamp.now()
            // A task that is asked to delete itself cannot: only finished tasks are deleted.
            let (matched, deleted) = try tasks.deleteTasks(where: filter.matches)
            return try recordTask(
                type: "taskDeletion", enqueuedAt: enqueuedAt,
                details: [
                    "matchedTasks": .integer(matched), "deletedTasks": .integer(deleted),
                    "originalFilter": .string(original),
                ])
        }
        on("/tasks/cancel", .post) { request, _ in
            let (filter, original) = try taskFilter(of: request, for: "cancel")
            let enqueuedAt = Timestamp.now()
            let matched = tasks.tasks(limit: 0, from: nil, reverse: false) { task in
                filter.matches(task) && ["enqueued", "processing"].contains(task.status)
            }.total
            return try recordTask(
                type: "taskCancelation", enqueuedAt: enqueuedAt,
                details: [
                    "matchedTasks": .integer(matched), "canceledTasks": .integer(0),
                    "originalFilter": .string(original),
                ])
        }
    }

    /// The filters of a `DELETE /tasks` or `POST /tasks/cancel`, which need at least one, and
    /// the query as Meilisearch shows it in `originalFilter` (`?statuses=succeeded`).
    private func taskFilter(of request: Request, for action: String) throws
        -> (MeilisearchTaskFilter, String)
    {
        let parameters = try QueryParameters(
            request, allowing: Set(MeilisearchTaskFilter.names),
            maximumSize: configuration.maximumQuerySize)
        let filter = try MeilisearchTaskFilter(parameters)
        guard !filter.isEmpty else {
            throw MeilisearchError.invalid(
                "missing_task_filters",
                "Query parameters to filter the tasks to \(action) are missing. Available query "
                    + "parameters are: "
                    + MeilisearchTaskFilter.names.map { "`\($0)`" }.joined(separator: ", ") + ".")
        }
        return (filter, "?" + (request.uri.query ?? ""))
    }

    /// Records a finished task on no index and answers 202 with its receipt.
    private func recordTask(
        type: String, enqueuedAt: Timestamp, details: KeyValuePairs<String, JSONValue>
    ) throws -> Response {
        var task = MeilisearchTaskStore.Task(
            uid: 0, indexUid: nil, type: type, status: "succeeded",
            details: details.map { JSONMember(key: $0.key, value: $0.value) }, error: .null,
            enqueuedAt: enqueuedAt, startedAt: enqueuedAt, finishedAt: Timestamp.now())
        return accepted(&task)
    }

    private static func taskParameter(_ parameters: QueryParameters, _ name: String, default: Int)
        throws(MeilisearchError) -> Int
    {
        guard let text = parameters[name] else { return `default` }
        guard let value = Int(text), value >= 0, value <= Int(UInt32.max) else {
            throw .invalid(
                "invalid_task_\(name)",
                "Invalid value in parameter `\(name)`: could not parse `\(text)` as a positive "
                    + "integer.")
        }
        return value
    }
}
