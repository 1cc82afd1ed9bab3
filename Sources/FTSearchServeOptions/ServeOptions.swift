public import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The options of `ftsearch serve`: declared once, read by the `ftsearch` command users type
/// (for its help, completions and checks) and by the `ftsearch-server` process it runs.
public struct ServeOptions: ParsableArguments, Sendable {
    /// The database file; `nil` for the default location.
    @Option(
        help: ArgumentHelp(
            "The database file (default: $FTSEARCH_DB, else $XDG_DATA_HOME/ftsearch/ftsearch.sqlite).",
            valueName: "path"),
        completion: .file())
    public var db: String?

    /// The address to listen on.
    @Option(
        help: "The address to listen on; any other than loopback needs --api-key or --read-only.")
    public var host: String = "127.0.0.1"

    /// The TCP port; 0 picks a free one.
    @Option(help: "The TCP port to listen on; 0 picks a free one.")
    public var port: Int = 7700

    /// The key changes need; `nil` when changes need none.
    @Option(
        name: .customLong("api-key"),
        help: ArgumentHelp(
            "The key every change needs as 'Authorization: Bearer KEY' (default: $FTSEARCH_API_KEY).",
            valueName: "key"))
    public var apiKey: String?

    /// Whether the server refuses every change.
    @Flag(
        name: .customLong("read-only"), help: "Open the database for reading only: changes get 503."
    )
    public var readOnly = false

    /// The origin allowed to call the API from another site's page.
    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp("Let pages from this origin call the API (CORS).", valueName: "origin"))
    public var corsOrigin: String?

    /// The names, besides the address served, that requests may give as their `Host`.
    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "A name clients may reach the server by besides the address served (a proxy's, this "
                + "machine's); repeat for more. Requests for any other host get 421.",
            valueName: "name"))
    public var allowedHosts: [String] = []

    /// Whether the access log is left out.
    @Flag(help: "Print no access log.")
    public var quiet = false

    /// Whether the short prefixes' rankings are left to the first searches of them.
    @Flag(
        name: .customLong("no-warm-up"),
        help: "Do not rank the 1- and 2-letter prefixes of the records' words as the server starts."
    )
    public var noWarmUp = false

    /// How long a client may take to send a request body, in seconds.
    @Option(
        name: .customLong("body-timeout"),
        help: ArgumentHelp(
            "Seconds a client may pause while sending a request body before it gets 408.",
            valueName: "seconds"))
    public var bodyTimeout: Double = 10

    /// The largest field a stored record may hold, in bytes.
    @Option(
        name: .customLong("max-field-size"),
        help: ArgumentHelp(
            "The largest field, in bytes, a record sent to the server may hold; a larger one "
                + "makes the record invalid (422).",
            valueName: "bytes"))
    public var maximumFieldSize: Int = 64 << 10

    /// Creates the defaults.
    public init() {}

    /// Checks the options (swift-argument-parser calls it after parsing): takes the key from
    /// `$FTSEARCH_API_KEY` when `--api-key` is not given, and holds the rule that only loopback
    /// may be served without a key, unless nothing can be changed.
    public mutating func validate() throws {
        if apiKey == nil, let key = getenv("FTSEARCH_API_KEY").map({ String(cString: $0) }),
            !key.isEmpty
        {
            apiKey = key
        }
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535, not \(port)")
        }
        guard bodyTimeout > 0 else {
            throw ValidationError("--body-timeout must be more than 0, not \(bodyTimeout)")
        }
        guard maximumFieldSize > 0 else {
            throw ValidationError("--max-field-size must be more than 0, not \(maximumFieldSize)")
        }
        if apiKey?.isEmpty == true {
            throw ValidationError("--api-key must not be empty")
        }
        if !Self.isLoopback(host) && apiKey == nil && !readOnly {
            throw ValidationError(
                "Refusing to serve \(host) without a key: anyone who reaches it could change the "
                    + "database. Give --api-key (or $FTSEARCH_API_KEY), add --read-only, or serve "
                    + "127.0.0.1.")
        }
    }

    /// The command line that gives these options, the key left out (it goes through the
    /// environment, where `ps` does not show it).
    public var argumentsWithoutKey: [String] {
        var arguments = [
            "--host", host, "--port", String(port), "--body-timeout", String(bodyTimeout),
            "--max-field-size", String(maximumFieldSize),
        ]
        if let db { arguments += ["--db", db] }
        if readOnly { arguments.append("--read-only") }
        if let corsOrigin { arguments += ["--cors-origin", corsOrigin] }
        for name in allowedHosts { arguments += ["--allowed-host", name] }
        if quiet { arguments.append("--quiet") }
        if noWarmUp { arguments.append("--no-warm-up") }
        return arguments
    }

    /// Whether `host` names this machine only: `localhost`, `127.x.y.z` or `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
