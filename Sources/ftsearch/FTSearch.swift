import ArgumentParser
import FTSearchKit

/// The root command: `ftsearch <subcommand>`.
struct FTSearch: ParsableCommand {
    static let version = FTSearchVersion.current

    static let configuration = CommandConfiguration(
        commandName: "ftsearch",
        abstract: "Full-text search over people and animals, on SQLite FTS5.",
        discussion: """
            Import JSON, NDJSON, CSV or TSV files, then search them with ranked, case- and \
            accent-insensitive prefix matching. Every search is remembered, and 'suggest' \
            completes a prefix from that history.
            """,
        version: version,
        subcommands: [
            ImportCommand.self, QueryCommand.self, InteractiveCommand.self, SuggestCommand.self,
            HistoryCommand.self, AddCommand.self, UpdateCommand.self, DeleteCommand.self,
            ShowCommand.self, ExportCommand.self, StatsCommand.self, CheckCommand.self,
            OptimizeCommand.self, RebuildCommand.self, ServeCommand.self, CompletionsCommand.self,
        ])

    init() {}
}
