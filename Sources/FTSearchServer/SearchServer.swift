import FTSearchKit
import Hummingbird
import NIOHTTPCompression
import NIOHTTPTypesHTTP1
import HummingbirdCore
public import Logging
import ServiceLifecycle
import UnixSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The HTTP server of `ftsearch serve`: the JSON API under `/api`, `/health`, and the search
/// page at `/`, over one ``SearchIndexPool`` (searches in parallel on reader connections,
/// changes one at a time on its writer).
///
/// ```swift
/// try await SearchServer.run(ServerConfiguration(databasePath: "people.sqlite")) { line in
///     print(line)  // Serving 12 people and 3 animals from people.sqlite at http://127.0.0.1:7700/
/// }
/// ```
///
/// SIGINT or SIGTERM stops accepting connections, lets the requests in progress finish (for at
/// most the configuration's `shutdownTimeout`), closes the database and returns; a second
/// signal ends the process at once.
public enum SearchServer {
    /// Opens the database, serves it until a signal stops the server, and returns.
    ///
    /// - Parameters:
    ///   - configuration: What to serve and how.
    ///   - logger: Where the access log goes (one line per request unless
    ///     `configuration.logsRequests` is false) and unexpected errors.
    ///   - onStart: Called with the start-up line once the server listens.
    /// - Throws: What opening the database throws; what binding the address throws.
    public static func run(
        _ configuration: ServerConfiguration, logger: Logger = Logger(label: "ftsearch"),
        onStart: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws {
        let pool = try SearchIndexPool(
            path: configuration.databasePath, readOnly: configuration.isReadOnly,
            maximumReaders: configuration.maximumReaders,
            memoryLimits: configuration.memoryLimits)
        let counts = try await pool.read { index in
            (try index.count(Person.self), try index.count(Animal.self))
        }
        // The first keystrokes' rankings, ranked before anyone types them; requests that come
        // meanwhile are served as they come.
        let shortPrefixes = Task(priority: .background) {
            if configuration.ranksShortPrefixesAtStart {
                _ = try? await pool.keepShortPrefixRankings()
            }
        }
        defer { shortPrefixes.cancel() }
        let exports = ExportLane(path: configuration.databasePath, configuration: configuration)
        let file = DatabaseFile(path: configuration.databasePath, logger: logger)
        let router = makeRouter(
            pool: pool, exports: exports, file: file, configuration: configuration,
            logger: logger)
        var serverLogger = logger
        serverLogger.logLevel = .warning
        let app = Application(
            router: router,
            server: .http1(
                configuration: HTTP1Channel.Configuration(
                    additionalChannelHandlers: [
                        ParserErrorHandler(), ClientConnectionHandler(),
                        // Bodies sent with Content-Encoding gzip or deflate (as Meilisearch's
                        // clients may send them) reach the routes decoded, at most 100 times
                        // their compressed size; the routes' body limits hold for the result.
                        // NIO's decompressor reads HTTP/1 parts, so it sits between a codec to
                        // them and one back.
                        HTTPToHTTP1ServerCodec(),
                        NIOHTTPRequestDecompressor(limit: .ratio(100)),
                        HTTP1ToHTTPServerCodec(secure: false),
                    ],
                    idleTimeout: .seconds(60))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                let host =
                    configuration.host.contains(":")
                    ? "[\(configuration.host)]" : configuration.host
                onStart(
                    "Serving \(grouped(counts.0)) \(counts.0 == 1 ? "person" : "people") and "
                        + "\(grouped(counts.1)) animal\(counts.1 == 1 ? "" : "s") from "
                        + "\(configuration.databasePath) at http://\(host):\(port)/")
            },
            logger: serverLogger)
        let signals: [UnixSignal] = [.sigterm, .sigint]
        var groupConfiguration = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: signals, logger: serverLogger)
        groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownTimeout
        groupConfiguration.maximumCancellationDuration = Duration.seconds(2)
        let group = ServiceGroup(configuration: groupConfiguration)
        let secondSignal = Task {
            var caught = 0
            for await signal in await UnixSignalsSequence(trapping: signals) {
                caught += 1
                if caught == 2 { _exit(128 + signal.rawValue) }
            }
        }
        defer { secondSignal.cancel() }
        try await group.run()
    }

    /// Every route, behind the middleware: the access log outermost, then CORS, errors as
    /// JSON, CONNECT's refusal, the key, the browser guard and the database file's check.
    static func makeRouter(
        pool: SearchIndexPool, exports: ExportLane, file: DatabaseFile,
        configuration: ServerConfiguration, logger: Logger
    ) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        if configuration.logsRequests {
            router.add(middleware: AccessLogMiddleware(logger: logger))
        }
        // CORS outside the errors' middleware, which answers every error itself: CORS wraps
        // an error that passes through it in a type that would answer 500.
        if let origin = configuration.corsOrigin {
            router.add(
                middleware: CORSMiddleware(
                    allowOrigin: .custom(origin),
                    allowHeaders: [.contentType, .authorization],
                    allowMethods: [.get, .post, .put, .patch, .delete, .options]))
        }
        router.add(middleware: ErrorMiddleware(logger: logger))
        router.add(middleware: ConnectMiddleware())
        // Before the native key middleware, which applies only to the routes added after it.
        MeilisearchRoutes(pool: pool, file: file, configuration: configuration, logger: logger)
            .add(to: router)
        if let key = configuration.apiKey {
            router.add(middleware: KeyMiddleware(key: key))
        }
        router.add(middleware: BrowserGuardMiddleware(configuration: configuration))
        router.add(middleware: DatabaseFileMiddleware(file: file))
        Routes(pool: pool, exports: exports, file: file, configuration: configuration)
            .add(to: router)
        return router
    }

    /// `1234567` → `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
