public import FTSearchKit

/// What `ftsearch serve` serves and how: the database, the address, the key and the limits.
///
/// ```swift
/// var configuration = ServerConfiguration(databasePath: "people.sqlite")
/// configuration.port = 8080
/// try await SearchServer.run(configuration)
/// ```
public struct ServerConfiguration: Sendable {
    /// The database file.
    public var databasePath: String
    /// The address to listen on.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free one.
    public var port: Int = 7700
    /// The key every change needs as `Authorization: Bearer KEY`; `nil` for none.
    public var apiKey: String?
    /// Whether the database is opened for reading only (every change gets 503).
    public var isReadOnly = false
    /// The origin allowed to call the API from its pages (CORS); `nil` for none.
    public var corsOrigin: String?
    /// The names, besides the address served, that requests may give as `Host` (a proxy's,
    /// a machine's): any other gets 421, so that no DNS-rebinding page reaches the server.
    public var allowedHosts: [String] = []
    /// Whether each request is logged on standard error.
    public var logsRequests = true
    /// Whether the server ranks the short prefixes a search bar types first as it starts, in
    /// the background (see `SearchIndexPool.keepShortPrefixRankings(kinds:limit:)`).
    public var ranksShortPrefixesAtStart = true
    /// How long a client may pause while sending a request body.
    public var bodyTimeout: Duration = .seconds(10)
    /// The largest JSON request body, in bytes.
    public var maximumBodySize = 1 << 20
    /// The largest import body, in bytes.
    public var maximumImportSize = 1 << 30
    /// The largest query string, in bytes.
    public var maximumQuerySize = 16 << 10
    /// The most results one search request may ask for.
    public var maximumLimit = 1000
    /// The most queries one multi-search request may hold.
    public var maximumQueriesPerRequest = 100
    /// The longest highlight tag or crop marker a search may ask for, in bytes.
    public var maximumTagSize = 128
    /// The largest field a record may hold when it is stored (by an import, the records API or
    /// the Meilisearch documents routes), in UTF-8 bytes.
    public var maximumFieldSize = 64 << 10
    /// The largest answer one request may build, in bytes of JSON (exports, which are
    /// streamed, aside): past it the request gets 413 (see ``AnswerBudget``).
    public var maximumAnswerSize = 16 << 20
    /// The most exports that run at once, each on a reader connection of its own (not one of
    /// the searches' `maximumReaders`); more get 503.
    public var maximumExports = 4
    /// The most exports one client address may run at once; more get 503.
    public var maximumExportsPerClient = 2
    /// How long an export waits for a client that has stopped reading before it ends the
    /// answer and frees its connection.
    public var exportWriteTimeout: Duration = .seconds(30)
    /// How long requests in progress may take to finish once a shutdown begins.
    public var shutdownTimeout: Duration = .seconds(10)
    /// The most searches that run at once.
    public var maximumReaders = 4
    /// How much memory each connection uses for the database file: nothing mapped, a page
    /// cache of 16 MiB, so that the server stays small however large the file (see
    /// `ConnectionMemoryLimits`).
    public var memoryLimits = ConnectionMemoryLimits(mappedBytes: 0, pageCacheBytes: 16 << 20)
    /// How long every search waits, cancellably, before it starts: zero but in tests, which
    /// stand in a slow search with it (`$FTSEARCH_TEST_SEARCH_DELAY_MS` sets it).
    public var testSearchDelay: Duration = .zero

    /// Creates the defaults for the database at `databasePath`.
    public init(databasePath: String) {
        self.databasePath = databasePath
    }
}
