import Hummingbird
import Logging
import Synchronization

/// One line per request on the log: method, path (without the query string, which may hold
/// search text), status, bytes sent and milliseconds. Never a header (the key is one) and
/// never a body. A streamed answer is logged when its last byte is written.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let logger: Logger

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        var response = try await next(request, context)
        let line = "\(request.method) \(Self.printable(request.uri.path)) \(response.status.code)"
        let logger = self.logger
        if let length = response.body.contentLength {
            logger.info("\(line) \(length) B \(Self.milliseconds(since: start)) ms")
            return response
        }
        let body = response.body
        let sent = Atomic<Int>(0)
        response.body = ResponseBody { writer in
            defer {
                logger.info(
                    "\(line) \(sent.load(ordering: .relaxed)) B \(Self.milliseconds(since: start)) ms"
                )
            }
            try await body.map { chunk in
                sent.add(chunk.readableBytes, ordering: .relaxed)
                return chunk
            }.write(writer)
        }
        return response
    }

    /// The path with control characters escaped, so that a request cannot forge log lines.
    static func printable(_ path: String) -> String {
        var text = ""
        for scalar in path.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                text += "%" + String(scalar.value, radix: 16, uppercase: true)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = start.duration(to: .now)
        let microseconds =
            elapsed.components.seconds * 1_000_000
            + elapsed.components.attoseconds / 1_000_000_000_000
        let tenths = (microseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10)"
    }
}
