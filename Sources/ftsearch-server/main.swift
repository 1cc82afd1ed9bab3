import ArgumentParser
import FTSearchKit
import FTSearchServeOptions
import FTSearchServer
import Logging
import FTSearchSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server process `ftsearch serve` runs (docs/http-api.md); it takes the same options.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ftsearch-server",
        abstract: "The server behind 'ftsearch serve': run that instead.")

    @OptionGroup var options: ServeOptions

    func run() async throws {
        var environment: [String: String] = [:]
        if let db = getenv("FTSEARCH_DB") { environment["FTSEARCH_DB"] = String(cString: db) }
        if let data = getenv("XDG_DATA_HOME") {
            environment["XDG_DATA_HOME"] = String(cString: data)
        }
        if let home = getenv("HOME") { environment["HOME"] = String(cString: home) }
        var configuration = ServerConfiguration(
            databasePath: DatabaseLocation.resolve(
                explicitPath: options.db, environment: environment))
        configuration.host = options.host
        configuration.port = options.port
        configuration.apiKey = options.apiKey
        configuration.isReadOnly = options.readOnly
        configuration.corsOrigin = options.corsOrigin
        configuration.allowedHosts = options.allowedHosts
        configuration.maximumFieldSize = options.maximumFieldSize
        configuration.logsRequests = !options.quiet
        configuration.ranksShortPrefixesAtStart = !options.noWarmUp
        configuration.bodyTimeout = .milliseconds(Int64(options.bodyTimeout * 1000))
        if let delay = getenv("FTSEARCH_TEST_SEARCH_DELAY_MS").flatMap({ Int(String(cString: $0)) })
        {
            configuration.testSearchDelay = .milliseconds(delay)
        }
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        do {
            try await SearchServer.run(configuration) { line in
                FileHandleStandardError.write(line + "\n", to: 1)
            }
        } catch {
            FileHandleStandardError.write("Error: \(Self.message(for: error))\n")
            throw ExitCode(Self.exitCode(for: error))
        }
    }

    /// What went wrong, in the words `ftsearch` uses for the same library errors.
    static func message(for error: any Error) -> String {
        switch error {
        case let error as DatabaseOpenError: error.description
        case let error as SQLiteError: error.description
        default: "could not serve: \(error)"
        }
    }

    /// sysexits(3): 66 for a missing database, 65 for one that is not ftsearch's, 74 for
    /// the rest (an address in use among them).
    static func exitCode(for error: any Error) -> Int32 {
        switch error {
        case let error as DatabaseOpenError:
            switch error {
            case .missing: 66
            case .notADatabase, .newerSchema: 65
            case .cannotCreate: 73
            case .cannotOpen: 74
            }
        default: 74
        }
    }
}

/// Unbuffered writes to standard output and error.
enum FileHandleStandardError {
    static func write(_ text: String, to descriptor: Int32 = 2) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
    }
}
