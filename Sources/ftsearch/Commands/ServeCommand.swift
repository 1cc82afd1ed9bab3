import ArgumentParser
import FTSearchServeOptions

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ftsearch serve`: the HTTP API and the search page. The server is its own executable,
/// `ftsearch-server`, installed beside `ftsearch`, which this command replaces itself with:
/// linking Hummingbird into `ftsearch` would slow every other command's start-up
/// (docs/architecture.md: Why a second executable).
struct ServeCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the search page and an HTTP API for the database.",
        discussion: """
            Open http://127.0.0.1:7700/ for the search page; the API is JSON under /api (see \
            docs/http-api.md). Only 127.0.0.1 is served by default; any other address needs --api-key \
            (then every change needs 'Authorization: Bearer KEY') or --read-only. Searches never \
            write history: POST /api/history does. SIGINT or SIGTERM stops accepting, lets the \
            requests in progress finish and exits 0; a second signal exits at once.
            """)

    @OptionGroup var options: ServeOptions

    init() {}

    func run(in context: CommandContext) throws {
        guard let server = Self.serverExecutable() else {
            context.standardError.write(
                "Error: ftsearch serve needs ftsearch-server installed beside ftsearch; reinstall ftsearch.\n"
            )
            throw ExitCode.unavailable
        }
        var environment = context.environment
        if let key = options.apiKey { environment["FTSEARCH_API_KEY"] = key }
        // Two malloc arenas, not glibc's eight a core: each thread that allocates (the event
        // loops, the pool's readers, the exporters) would otherwise keep an arena of its own,
        // and what a refused answer or a finished export freed stays in them. A server left
        // running settles lower (Tests/ServerTests/test_limits.py, after its hostile
        // requests: 126 MiB → 104–112 MiB, debug build). A value the user set still decides.
        if environment["MALLOC_ARENA_MAX"] == nil { environment["MALLOC_ARENA_MAX"] = "2" }
        context.standardOutput.flush()
        context.standardError.flush()
        let arguments = [server] + options.argumentsWithoutKey
        let errorNumber = Self.exec(server, arguments: arguments, environment: environment)
        context.standardError.write(
            "Error: could not run \(server): \(String(cString: strerror(errorNumber)))\n")
        throw ExitCode.unavailable
    }

    /// `ftsearch-server` in the folder of the running executable, if it is there.
    static func serverExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let executable = String(
            decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        let path = String(executable[..<slash]) + "/ftsearch-server"
        return access(path, X_OK) == 0 ? path : nil
    }

    /// Replaces this process with `path`; returns errno when that fails.
    private static func exec(_ path: String, arguments: [String], environment: [String: String])
        -> Int32
    {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve(path, argv, envp)
        return errno
    }
}
