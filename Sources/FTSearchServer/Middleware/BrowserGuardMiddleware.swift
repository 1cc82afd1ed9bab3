import Hummingbird

/// Keeps web pages from other sites from using a browser to reach the server
/// (docs/reliability.md: Threat model):
///
/// - `Host` must name the served address (`localhost` too when that is loopback, any IP
///   address when every interface is served) or a name of `--allowed-host`: else 421, so a
///   DNS-rebinding page, whose requests name its own host, reads and changes nothing.
/// - A change (any method but GET, HEAD and OPTIONS) that carries `Origin` must come from the
///   server's own origin or the `--cors-origin` one: else 403.
///
/// Beside it, every route that changes something reads its body only in the content types it
/// documents (JSON, NDJSON, CSV, TSV: 415 for a form's `application/x-www-form-urlencoded`,
/// `multipart/form-data` or `text/plain`, and for none), and the others take DELETE: a
/// page of another site can only send a change after a CORS preflight, which the server
/// grants to `--cors-origin` alone.
///
/// The errors take the shape of the routes' group (the native one, or Meilisearch's, through
/// their error middleware).
struct BrowserGuardMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let rule: HostRule
    let corsOrigin: String?

    init(configuration: ServerConfiguration) {
        rule = HostRule(configuration: configuration)
        corsOrigin = configuration.corsOrigin.map { $0.lowercased() }
    }

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let host = request.head.authority
        if let host, !rule.allows(host) {
            throw APIError(
                HTTPResponse.Status(code: 421, reasonPhrase: "Misdirected Request"),
                code: "misdirected_request",
                "this server does not answer for the host '\(Self.printable(host))'; "
                    + "its operator can allow the name with --allowed-host")
        }
        switch request.method {
        case .get, .head, .options:
            return try await next(request, context)
        default:
            break
        }
        if let origin = request.headers[.origin]?.lowercased(), !isAllowed(origin, host: host) {
            throw APIError(
                .forbidden, code: "cross_origin",
                "changes are not accepted from pages of \(Self.printable(origin))")
        }
        return try await next(request, context)
    }

    /// Whether `origin` (lowercased) is the server's own (its scheme and the request's
    /// `Host`) or the CORS one.
    private func isAllowed(_ origin: String, host: String?) -> Bool {
        if origin == corsOrigin { return true }
        guard let host = host?.lowercased() else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }

    /// At most 100 characters, without control characters.
    static func printable(_ text: String) -> String {
        let kept = text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        let cleaned = String(String.UnicodeScalarView(kept))
        return cleaned.count > 100 ? String(cleaned.prefix(100)) + "…" : cleaned
    }
}

/// The host names a server answers for.
struct HostRule: Sendable {
    /// Names and addresses, lowercased, without brackets.
    let names: Set<String>
    /// Whether any IP address is allowed (the server listens on every interface).
    let allowsAnyAddress: Bool

    init(configuration: ServerConfiguration) {
        var names = Set(configuration.allowedHosts.map { Self.name(of: $0) })
        let served = Self.name(of: configuration.host)
        names.insert(served)
        if served == "localhost" || served == "::1" || served.hasPrefix("127.") {
            names.formUnion(["localhost", "127.0.0.1", "::1"])
        }
        self.names = names
        allowsAnyAddress = served == "0.0.0.0" || served == "::" || served.isEmpty
    }

    /// Whether `Host` (a name or address, with or without a port) is one of these.
    func allows(_ host: String) -> Bool {
        let name = Self.name(of: host)
        if names.contains(name) { return true }
        return allowsAnyAddress && Self.isAddress(name)
    }

    /// `Example.org:7700` → `example.org`, `[::1]:7700` → `::1`, `::1` → `::1`.
    static func name(of host: String) -> String {
        let host = host.lowercased()
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex)..<end])
        }
        if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            return String(host[..<colon])
        }
        return host
    }

    /// Whether a name is an IPv4 or IPv6 address (a page cannot rebind those).
    static func isAddress(_ name: String) -> Bool {
        if name.contains(":") { return name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}
