import FTSearchKit
import Synchronization
import HTTPTypes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tasks of the Meilisearch-compatible API, kept in a file of their own beside the
/// database (`people.sqlite.meilisearch-tasks.ndjson`), one JSON line per task as
/// `GET /tasks/{uid}` shows it, appended and synced when the task finishes. Uids only grow:
/// on start the store continues after the highest uid in the file, so they survive a restart.
/// A line cut short by a crash is skipped.
///
/// ftsearch applies a write before it answers, so a task is finished (`succeeded` or `failed`)
/// by the time its receipt (`status: enqueued`, as Meilisearch's receipts say) reaches the
/// client; `wait_for_task` returns at its first poll.
final class MeilisearchTaskStore: Sendable {
    /// One finished task.
    struct Task: Sendable {
        var uid: Int
        /// nil for a task on no index (a task deletion).
        var indexUid: String?
        var type: String
        var status: String
        var details: [JSONMember]
        var error: JSONValue
        var enqueuedAt: Timestamp
        var startedAt: Timestamp
        var finishedAt: Timestamp
        /// The `customMetadata` the write was given, shown on the task and its receipt.
        var customMetadata: String? = nil

        var jsonObject: JSONValue {
            let milliseconds = finishedAt.millisecondsSinceEpoch - startedAt.millisecondsSinceEpoch
            let duration = "PT\(milliseconds / 1000).\(Self.threeDigits(milliseconds % 1000))S"
            return JSONResponse.object([
                "uid": .integer(uid),
                "batchUid": .integer(uid),
                "indexUid": .text(indexUid),
                "status": .string(status),
                "type": .string(type),
                "canceledBy": .null,
                "details": .object(details),
                "error": error,
                "duration": .string(duration),
                "enqueuedAt": .string(enqueuedAt.description),
                "startedAt": .string(startedAt.description),
                "finishedAt": .string(finishedAt.description),
            ]).appendingCustomMetadata(customMetadata)
        }

        /// The summary a write answers with (202).
        var receipt: JSONValue {
            JSONResponse.object([
                "taskUid": .integer(uid),
                "indexUid": .text(indexUid),
                "status": .string("enqueued"),
                "type": .string(type),
                "enqueuedAt": .string(enqueuedAt.description),
            ]).appendingCustomMetadata(customMetadata)
        }

        private static func threeDigits(_ value: Int64) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, 3 - text.count)) + text
        }
    }

    /// A kept task: its object as shown, and what filters read.
    struct Entry: Sendable {
        var uid: Int
        var object: JSONValue
        var indexUid: String?
        var status: String
        var type: String
        var enqueuedAt: Timestamp?
        var startedAt: Timestamp?
        var finishedAt: Timestamp?

        init(object: JSONValue) {
            let members: [JSONMember]
            if case .object(let all) = object { members = all } else { members = [] }
            func text(_ key: String) -> String? {
                members.first { $0.key == key }?.value.scalarText
            }
            uid = text("uid").flatMap { Int($0) } ?? -1
            self.object = object
            indexUid = text("indexUid")
            status = text("status") ?? ""
            type = text("type") ?? ""
            enqueuedAt = text("enqueuedAt").flatMap { Timestamp(iso8601: $0) }
            startedAt = text("startedAt").flatMap { Timestamp(iso8601: $0) }
            finishedAt = text("finishedAt").flatMap { Timestamp(iso8601: $0) }
        }
    }

    private struct State {
        var tasks: [Entry] = []
        var nextUid = 0
        var lastFinished: [String: Timestamp] = [:]

        mutating func keep(_ entry: Entry) {
            tasks.append(entry)
            nextUid = max(nextUid, entry.uid + 1)
            if let index = entry.indexUid, let finished = entry.finishedAt {
                lastFinished[index] = max(lastFinished[index] ?? finished, finished)
            }
        }
    }

    let path: String
    private let state = Mutex(State())

    /// Opens (or starts) the task file of the database at `databasePath`.
    init(databasePath: String) {
        path = databasePath + ".meilisearch-tasks.ndjson"
        let text = SidecarFile.contents(of: path)
        state.withLock { state in
            for line in text.split(separator: "\n") {
                guard let object = JSONValue(parsing: String(line)) else { continue }
                let entry = Entry(object: object)
                if entry.uid >= 0 { state.keep(entry) }
            }
        }
    }

    /// Gives `task` the next uid, keeps it, and appends it to the file.
    ///
    /// - Returns: Why the file could not keep it (the task is kept until the server stops, and
    ///   its change was made: the answer tells the change's real outcome), or nil.
    func record(_ task: inout Task) -> String? {
        state.withLock { state in
            task.uid = state.nextUid
            let object = task.jsonObject
            state.keep(Entry(object: object))
            let line = Array((object.jsonText + "\n").utf8)
            let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return SidecarFile.failure(errno) }
            defer { close(descriptor) }
            let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == line.count else {
                return SidecarFile.failure(written < 0 ? errno : ENOSPC)
            }
            guard fsync(descriptor) == 0 else { return SidecarFile.failure(errno) }
            return nil
        }
    }

    /// The task with this uid.
    func task(_ uid: Int) -> JSONValue? {
        state.withLock { state in state.tasks.first { $0.uid == uid }?.object }
    }

    /// When the first task kept on `indexUid` was enqueued.
    func firstEnqueued(on indexUid: String) -> Timestamp? {
        state.withLock { state in
            state.tasks.first { $0.indexUid == indexUid }?.enqueuedAt
        }
    }

    /// When the last task on `indexUid` finished.
    func lastFinished(on indexUid: String) -> Timestamp? {
        state.withLock { $0.lastFinished[indexUid] }
    }

    /// The tasks that pass `filter`, newest first (oldest first when `reverse`), from uid
    /// `from` on; their total; the uid of the first and of the next page.
    func tasks(limit: Int, from: Int?, reverse: Bool, where filter: (Entry) -> Bool)
        -> (results: [JSONValue], total: Int, firstUid: Int, next: Int?)
    {
        state.withLock { state in
            let ordered = reverse ? Array(state.tasks) : state.tasks.reversed()
            let matching = ordered.filter(filter)
            let page = matching.filter { task in
                guard let from else { return true }
                return reverse ? task.uid >= from : task.uid <= from
            }
            return (
                page.prefix(limit).map(\.object), matching.count, page.first?.uid ?? 0,
                page.count > limit ? page[limit].uid : nil
            )
        }
    }

    /// Deletes the finished tasks that pass `filter` from the store and its file (rewritten
    /// whole, then renamed over the old one); how many matched and how many were deleted.
    ///
    /// - Throws: 500 when the file cannot be rewritten (nothing is deleted then).
    func deleteTasks(where filter: (Entry) -> Bool) throws(MeilisearchError) -> (
        matched: Int, deleted: Int
    ) {
        try state.withLock { state throws(MeilisearchError) in
            let matched = state.tasks.filter(filter).count
            let kept = state.tasks.filter { !filter($0) }
            let text = kept.map { $0.object.jsonText + "\n" }.joined()
            if let failure = SidecarFile.replace(path, with: text) {
                throw Self.unrewritable(path, failure)
            }
            state.tasks = kept
            return (matched, matched)
        }
    }

    private static func unrewritable(_ path: String, _ failure: String) -> MeilisearchError {
        MeilisearchError(
            .internalServerError, code: "io_error",
            "the task file \(path) could not be rewritten (\(failure)): no task was deleted",
            type: .system)
    }
}

extension JSONValue {
    /// The object with `customMetadata` last, when there is one.
    fileprivate func appendingCustomMetadata(_ metadata: String?) -> JSONValue {
        guard let metadata, case .object(let members) = self else { return self }
        return .object(members + [JSONMember(key: "customMetadata", value: .string(metadata))])
    }
}
