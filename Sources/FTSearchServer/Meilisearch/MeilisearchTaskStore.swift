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
        var indexUid: String
        var type: String
        var status: String
        var details: [JSONMember]
        var error: JSONValue
        var enqueuedAt: Timestamp
        var startedAt: Timestamp
        var finishedAt: Timestamp

        var jsonObject: JSONValue {
            let milliseconds = finishedAt.millisecondsSinceEpoch - startedAt.millisecondsSinceEpoch
            let duration = "PT\(milliseconds / 1000).\(Self.threeDigits(milliseconds % 1000))S"
            return JSONResponse.object([
                "uid": .integer(uid),
                "batchUid": .integer(uid),
                "indexUid": .string(indexUid),
                "status": .string(status),
                "type": .string(type),
                "canceledBy": .null,
                "details": .object(details),
                "error": error,
                "duration": .string(duration),
                "enqueuedAt": .string(enqueuedAt.description),
                "startedAt": .string(startedAt.description),
                "finishedAt": .string(finishedAt.description),
            ])
        }

        /// The summary a write answers with (202).
        var receipt: JSONValue {
            JSONResponse.object([
                "taskUid": .integer(uid),
                "indexUid": .string(indexUid),
                "status": .string("enqueued"),
                "type": .string(type),
                "enqueuedAt": .string(enqueuedAt.description),
            ])
        }

        private static func threeDigits(_ value: Int64) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, 3 - text.count)) + text
        }
    }

    private struct State {
        var tasks: [(uid: Int, object: JSONValue, indexUid: String, status: String, type: String)] =
            []
        var nextUid = 0
        var lastFinished: [String: Timestamp] = [:]
    }

    let path: String
    private let state = Mutex(State())

    /// Opens (or starts) the task file of the database at `databasePath`.
    init(databasePath: String) {
        path = databasePath + ".meilisearch-tasks.ndjson"
        let text = Self.contents(of: path)
        state.withLock { state in
            for line in text.split(separator: "\n") {
                guard case .object(let members)? = JSONValue(parsing: String(line)),
                    let uid = members.first(where: { $0.key == "uid" })?.value.scalarText.flatMap({
                        Int($0)
                    })
                else { continue }
                func text(_ key: String) -> String {
                    members.first { $0.key == key }?.value.scalarText ?? ""
                }
                state.tasks.append(
                    (uid, .object(members), text("indexUid"), text("status"), text("type")))
                state.nextUid = max(state.nextUid, uid + 1)
                if let finished = Timestamp(iso8601: text("finishedAt")) {
                    state.lastFinished[text("indexUid")] = finished
                }
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
            state.nextUid += 1
            state.tasks.append((task.uid, object, task.indexUid, task.status, task.type))
            state.lastFinished[task.indexUid] = task.finishedAt
            let line = Array((object.jsonText + "\n").utf8)
            let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return Self.failure(errno) }
            defer { close(descriptor) }
            let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == line.count else { return Self.failure(written < 0 ? errno : ENOSPC) }
            guard fsync(descriptor) == 0 else { return Self.failure(errno) }
            return nil
        }
    }

    /// The task with this uid.
    func task(_ uid: Int) -> JSONValue? {
        state.withLock { state in state.tasks.first { $0.uid == uid }?.object }
    }

    /// When the last task on `indexUid` finished.
    func lastFinished(on indexUid: String) -> Timestamp? {
        state.withLock { $0.lastFinished[indexUid] }
    }

    /// The tasks newest first, from uid `from` down, that pass `filter`; their total; the uid
    /// of the first and of the next page.
    func tasks(
        limit: Int, from: Int?,
        where filter: (_ uid: Int, _ indexUid: String, _ status: String, _ type: String) -> Bool
    ) -> (results: [JSONValue], total: Int, firstUid: Int, next: Int?) {
        state.withLock { state in
            let matching = state.tasks.reversed().filter {
                filter($0.uid, $0.indexUid, $0.status, $0.type)
            }
            let page = matching.filter { $0.uid <= (from ?? Int.max) }
            return (
                page.prefix(limit).map(\.object), matching.count, page.first?.uid ?? 0,
                page.count > limit ? page[limit].uid : nil
            )
        }
    }

    private static func failure(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The file's text; empty when it does not exist.
    private static func contents(of path: String) -> String {
        guard let file = fopen(path, "rb") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
