import ArgumentParser
import FTSearchKit

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The database file (default: $FTSEARCH_DB, else $XDG_DATA_HOME/ftsearch/ftsearch.sqlite).",
            valueName: "path"),
        completion: .file())
    var db: String?

    init() {}

    /// The database path this invocation uses.
    func databasePath(in context: CommandContext) -> String {
        DatabaseLocation.resolve(explicitPath: db, environment: context.environment)
    }

    /// Opens the database; `mode` says whether a missing file is created.
    func openIndex(in context: CommandContext, mode: SearchIndex.OpenMode = .existingOnly) throws
        -> SearchIndex
    {
        try SearchIndex(path: databasePath(in: context), mode: mode, clock: try context.clock())
    }
}

extension CommandContext {
    /// The current time: `$FTSEARCH_NOW` (ISO 8601) when set, so that runs are reproducible,
    /// else the system clock.
    func clock() throws -> @Sendable () -> Timestamp {
        guard let text = environment["FTSEARCH_NOW"], !text.isEmpty else { return Timestamp.now }
        guard let fixed = Timestamp(iso8601: text) else {
            throw ValidationError(
                "FTSEARCH_NOW must be an ISO 8601 date such as 2026-01-01T12:00:00Z, not '\(text)'")
        }
        return { fixed }
    }
}
