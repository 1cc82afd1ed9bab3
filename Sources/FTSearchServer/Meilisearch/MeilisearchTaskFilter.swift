import FTSearchKit
import Hummingbird

/// The task filters of `GET /tasks`, `DELETE /tasks` and `POST /tasks/cancel`, read as
/// Meilisearch reads them: comma-separated lists (`*` for any) of `uids`, `batchUids`,
/// `indexUids`, `statuses`, `types` and `canceledBy`, and RFC 3339 times (or dates)
/// `beforeEnqueuedAt`, `afterEnqueuedAt`, `beforeStartedAt`, `afterStartedAt`,
/// `beforeFinishedAt`, `afterFinishedAt` (a date alone means its midnight for `before`, the
/// end of that day for `after`). A bad value is a 400 `invalid_task_<filter>`.
struct MeilisearchTaskFilter {
    static let names = [
        "uids", "batchUids", "indexUids", "statuses", "types", "canceledBy",
        "beforeEnqueuedAt", "afterEnqueuedAt", "beforeStartedAt", "afterStartedAt",
        "beforeFinishedAt", "afterFinishedAt",
    ]
    static let statuses: Set<String> = [
        "enqueued", "processing", "succeeded", "failed", "canceled",
    ]
    static let types: Set<String> = [
        "documentAdditionOrUpdate", "documentEdition", "documentDeletion", "settingsUpdate",
        "indexCreation", "indexDeletion", "indexUpdate", "indexSwap", "indexCompaction",
        "taskCancelation", "taskDeletion", "dumpCreation", "snapshotCreation", "export",
        "upgradeDatabase", "networkTopologyChange",
    ]

    private var uids: Set<Int>?
    private var batchUids: Set<Int>?
    private var indexUids: Set<String>?
    private var statuses: Set<String>?
    private var types: Set<String>?
    private var canceledBy: Set<Int>?
    /// (which time of the task, exclusive bound, whether the task must be before it).
    private var bounds: [(KeyPath<MeilisearchTaskStore.Entry, Timestamp?>, Timestamp, Bool)] = []
    /// Whether any filter was given (`DELETE /tasks` and `/tasks/cancel` need one).
    private(set) var isEmpty = true

    init(_ parameters: QueryParameters) throws(MeilisearchError) {
        func list(_ name: String) -> [String]? {
            guard let text = parameters[name] else { return nil }
            isEmpty = false
            let items = Routes.list(text)
            return items.contains("*") ? nil : items
        }
        func numbers(_ name: String) throws(MeilisearchError) -> Set<Int>? {
            guard let items = list(name) else { return nil }
            var numbers = Set<Int>()
            for item in items {
                guard let number = Int(item), number >= 0 else {
                    throw .invalid(
                        "invalid_task_" + MeilisearchSearchQuery.snakeCase(name),
                        "Invalid value in parameter `\(name)`: could not parse `\(item)` as a "
                            + "positive integer.")
                }
                numbers.insert(number)
            }
            return numbers
        }
        func names(_ name: String, among known: Set<String>?) throws(MeilisearchError)
            -> Set<String>?
        {
            guard let items = list(name) else { return nil }
            if let known, let unknown = items.first(where: { !known.contains($0) }) {
                throw .invalid(
                    "invalid_task_" + MeilisearchSearchQuery.snakeCase(name),
                    "Invalid value in parameter `\(name)`: `\(unknown)` is not a valid task "
                        + "\(name == "types" ? "type" : "status"). Available "
                        + "\(name) are \(known.sorted().map { "`\($0)`" }.joined(separator: ", "))."
                )
            }
            return Set(items)
        }
        uids = try numbers("uids")
        batchUids = try numbers("batchUids")
        canceledBy = try numbers("canceledBy")
        indexUids = try names("indexUids", among: nil)
        statuses = try names("statuses", among: Self.statuses)
        types = try names("types", among: Self.types)
        let times: [(String, KeyPath<MeilisearchTaskStore.Entry, Timestamp?>)] = [
            ("EnqueuedAt", \.enqueuedAt), ("StartedAt", \.startedAt), ("FinishedAt", \.finishedAt),
        ]
        for (suffix, time) in times {
            for before in [true, false] {
                let name = (before ? "before" : "after") + suffix
                guard let text = parameters[name] else { continue }
                isEmpty = false
                guard let bound = Self.time(text, isBefore: before) else {
                    throw .invalid(
                        "invalid_task_" + MeilisearchSearchQuery.snakeCase(name),
                        "`\(text)` is an invalid date-time. It should follow the YYYY-MM-DD or "
                            + "RFC 3339 date-time format.")
                }
                bounds.append((time, bound, before))
            }
        }
    }

    func matches(_ task: MeilisearchTaskStore.Entry) -> Bool {
        guard uids?.contains(task.uid) ?? true,
            batchUids?.contains(task.uid) ?? true,
            indexUids.map({ task.indexUid.map($0.contains) ?? false }) ?? true,
            statuses?.contains(task.status) ?? true,
            types?.contains(task.type) ?? true,
            // ftsearch never cancels a task.
            canceledBy == nil
        else { return false }
        return bounds.allSatisfy { time, bound, before in
            guard let value = task[keyPath: time] else { return false }
            return before ? value < bound : value > bound
        }
    }

    /// An RFC 3339 time (fractions of a second beyond milliseconds are cut), or a date: its
    /// midnight for `before`, the next midnight for `after`.
    static func time(_ text: String, isBefore: Bool) -> Timestamp? {
        if text.count == 10 {
            guard let day = Timestamp(iso8601: text) else { return nil }
            return isBefore
                ? day : Timestamp(millisecondsSinceEpoch: day.millisecondsSinceEpoch + 86_400_000)
        }
        var trimmed = ""
        var digitsAfterPoint: Int?
        for character in text {
            if character == "." {
                digitsAfterPoint = 0
            } else if let count = digitsAfterPoint, character.isASCII, character.isNumber {
                digitsAfterPoint = count + 1
                if count >= 3 { continue }
            } else {
                digitsAfterPoint = nil
            }
            trimmed.append(character)
        }
        guard text.contains("T") || text.contains("t") else { return nil }
        return Timestamp(iso8601: trimmed)
    }
}
