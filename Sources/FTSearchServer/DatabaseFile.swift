import Hummingbird
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the file the server opened is still the one at its path: a database deleted, or
/// replaced by another file (`mv new.sqlite db.sqlite`), while the server runs would take
/// every later change into a file no one will open again. The device and inode read at start
/// are compared with the path's before each change and at `/health`; once they differ the
/// server refuses changes (503) until it is restarted, and logs why, once.
final class DatabaseFile: Sendable {
    let path: String
    private let identity: (device: UInt64, inode: UInt64)?
    private let lost = Mutex<String?>(nil)
    private let logger: Logger

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
        identity = Self.identity(of: path)
    }

    /// Why the file at the path is no longer the one served; nil while it is.
    func problem() -> String? {
        if let known = lost.withLock({ $0 }) { return known }
        guard let identity else { return nil }
        let found: String?
        if let current = Self.identity(of: path) {
            found =
                current == identity
                ? nil : "the database file \(path) was replaced by another file"
        } else {
            found = "the database file \(path) was deleted or moved"
        }
        guard let found else { return nil }
        let first = lost.withLock { lost in
            defer { lost = lost ?? found }
            return lost == nil
        }
        if first {
            let message =
                "\(found) while the server was running: changes are refused from now on; "
                + "restart the server to serve the file now at that path"
            logger.error("\(message)")
        }
        return found
    }

    /// 503 `database_replaced` when the file is no longer the one served.
    func check() throws(APIError) {
        if let problem = problem() {
            throw APIError(
                .serviceUnavailable, code: "database_replaced",
                "\(problem) while the server was running; nothing more is stored until the "
                    + "server is restarted")
        }
    }

    /// When the file at `path` last changed, in milliseconds since 1970; nil when it cannot
    /// be read.
    static func modificationTime(of path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_mtim.tv_sec) * 1000 + Int64(status.st_mtim.tv_nsec) / 1_000_000
    }

    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }
}

/// Refuses every change (any method but GET, HEAD and OPTIONS) once the database file is not
/// the one served (see ``DatabaseFile``).
struct DatabaseFileMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let file: DatabaseFile

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        switch request.method {
        case .get, .head, .options: break
        default: try file.check()
        }
        return try await next(request, context)
    }
}
