import ArgumentParser
import FTSearchKit
import FTSearchSQLite

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The database file (default: $FTSEARCH_DB, else $XDG_DATA_HOME/ftsearch/ftsearch.sqlite).",
            valueName: "path"),
        completion: .file())
    var db: String?

    @Flag(
        name: .customLong("no-wait"),
        help:
            "When another process is writing the database, fail at once (exit 75) instead of waiting for it."
    )
    var noWait = false

    init() {}

    /// The database path this invocation uses.
    func databasePath(in context: CommandContext) -> String {
        DatabaseLocation.resolve(explicitPath: db, environment: context.environment)
    }

    /// How a change waits while another process writes: saying after a second what it waits
    /// for, or with `--no-wait` not at all.
    func lockWaiting(in context: CommandContext) -> LockWaiting {
        noWait ? .failAtOnce : context.waitingWithNotice()
    }

    /// Opens the database; `mode` says whether a missing file is created. A migration that
    /// re-indexes every record shows the import's progress line on a terminal. A change waits
    /// while another process writes, saying after a second what it waits for, or with
    /// `--no-wait` fails at once.
    func openIndex(in context: CommandContext, mode: SearchIndex.OpenMode = .existingOnly) throws
        -> SearchIndex
    {
        var progress = ProgressLine(
            output: context.standardError, isEnabled: context.isStandardErrorTerminal)
        defer { progress.clear() }
        let path = databasePath(in: context)
        return try SearchIndex(
            path: path, mode: mode, clock: try context.clock(),
            lockWaiting: lockWaiting(in: context),
            onMigrationProgress: { progress.show($0) })
    }
}

extension CommandContext {
    /// Waiting for another process's write, with a line on standard error once a wait has
    /// lasted a second: which process holds the lock, and which file it writes.
    func waitingWithNotice() -> LockWaiting {
        let output = UncheckedSendable(standardError)
        return .untilFree { holder, path in
            output.value.print(
                "Waiting for \(holder?.description ?? "another process") to finish writing "
                    + "\(path) (--no-wait fails at once instead)...")
        }
    }
}

/// A value that crosses a `@Sendable` boundary which is, in fact, never crossed: SQLite calls
/// the busy handler on the thread that runs the statement.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
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
