import FTSearchKit
import Hummingbird
import Synchronization

/// Reading request bodies: within a size limit, with a bound on how long a client may pause
/// while sending (a client that never finishes gets 408 instead of holding a connection and
/// the writer), and JSON bodies only with a JSON content type.
struct RequestBodies: Sendable {
    var maximumBodySize: Int
    var timeout: Duration

    /// Calls `handle` with each chunk of `body` as it arrives, until `handle` returns false
    /// or the body ends.
    ///
    /// - Throws: 408 when no byte arrives for `timeout`; 413 past `limit` bytes; what `handle`
    ///   or the connection throws.
    func forEachChunk(
        of body: RequestBody, limit: Int,
        _ handle: @escaping @Sendable (ByteBuffer) async throws -> Bool
    ) async throws {
        let lastProgress = LastProgress()
        let timeout = self.timeout
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var received = 0
                for try await chunk in body {
                    lastProgress.mark()
                    received += chunk.readableBytes
                    guard received <= limit else {
                        throw APIError(
                            .contentTooLarge, code: "too_large",
                            "the request body is larger than \(limit) bytes")
                    }
                    guard try await handle(chunk) else { return }
                }
            }
            group.addTask {
                while true {
                    try await Task.sleep(for: timeout / 4)
                    if lastProgress.isOlder(than: timeout) {
                        throw APIError(
                            .requestTimeout, code: "timeout",
                            "the request body did not arrive in time")
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// The whole body, at most ``maximumBodySize`` bytes.
    func collect(_ request: Request) async throws -> [UInt8] {
        let bytes = CollectedBytes()
        try await forEachChunk(of: request.body, limit: maximumBodySize) { chunk in
            bytes.append(chunk)
            return true
        }
        return bytes.bytes
    }

    /// The members of the JSON object the body holds.
    ///
    /// - Throws: 415 unless the content type is JSON; 400 for a body that is not UTF-8, not
    ///   JSON, or not an object.
    func jsonObject(_ request: Request) async throws -> [JSONMember] {
        guard case .object(let members) = try await json(request) else {
            throw APIError.badRequest("the body must be a JSON object")
        }
        return members
    }

    /// The JSON value the body holds.
    ///
    /// - Throws: 415 unless the content type is JSON; 400 for a body that is not UTF-8 or not
    ///   JSON.
    func json(_ request: Request) async throws -> JSONValue {
        guard Self.isJSON(request.headers[.contentType]) else {
            throw APIError(
                .unsupportedMediaType, code: "unsupported_media_type",
                "send the body as JSON, with Content-Type: application/json")
        }
        let bytes = try await collect(request)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw APIError.badRequest("the body is not UTF-8")
        }
        guard let value = JSONValue(parsing: text) else {
            throw APIError.badRequest("the body is not valid JSON")
        }
        return value
    }

    /// Whether a content type names JSON: `application/json`, with or without parameters.
    static func isJSON(_ contentType: String?) -> Bool {
        mediaType(contentType) == "application/json"
    }

    /// `text/csv` of `text/csv; charset=utf-8`, lowercased.
    static func mediaType(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: " \t").lowercased()
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters of `set`.
    fileprivate func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        guard let start = firstIndex(where: { !characters.contains($0) }),
            let end = lastIndex(where: { !characters.contains($0) })
        else { return "" }
        return String(self[start...end])
    }
}

/// When a body's last chunk arrived.
private final class LastProgress: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    func mark() { instant.withLock { $0 = .now } }

    func isOlder(than duration: Duration) -> Bool {
        instant.withLock { $0 }.duration(to: .now) > duration
    }
}

/// A body's bytes, as they arrive.
private final class CollectedBytes: Sendable {
    private let storage = Mutex<[UInt8]>([])

    func append(_ chunk: ByteBuffer) { storage.withLock { $0 += chunk.readableBytesView } }

    var bytes: [UInt8] { storage.withLock { $0 } }
}
