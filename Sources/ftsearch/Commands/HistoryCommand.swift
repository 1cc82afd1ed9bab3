import ArgumentParser
import FTSearchKit

/// `ftsearch history [list|delete|clear]`.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List, delete or clear past searches.",
        discussion: """
            Every 'ftsearch query' with non-empty text is recorded. Searches that differ only in \
            case, accents or spacing are one entry, counted each time.
            """,
        subcommands: [
            HistoryListCommand.self, HistoryDeleteCommand.self, HistoryClearCommand.self,
        ],
        defaultSubcommand: HistoryListCommand.self)

    init() {}
}

/// `ftsearch history list`.
struct HistoryListCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List past searches, most recently used first.")

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case table, json, tsv
    }

    @OptionGroup var global: GlobalOptions

    @Option(name: .shortAndLong, help: "The most entries to show; 0 for all.")
    var limit: Int = 20

    @Option(help: "Output format (default: table on a terminal, else tsv).")
    var format: Format?

    init() {}

    mutating func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more, not \(limit)") }
    }

    func run(in context: CommandContext) throws {
        let entries = try global.openIndex(in: context).history.entries(
            limit: limit == 0 ? nil : limit)
        switch format ?? (context.isStandardOutputTerminal ? .table : .tsv) {
        case .table:
            var table = TextTable(headers: ["ID", "SEARCH", "COUNT", "LAST USED", "RESULTS"])
            for entry in entries {
                table.append(plain: [
                    String(entry.id), entry.text, String(entry.useCount),
                    entry.lastUsed.secondsDescription, String(entry.resultCount),
                ])
            }
            context.standardOutput.write(table.rendered())
        case .tsv:
            context.standardOutput.write(
                TSV.line(["id", "text", "count", "last_used", "result_count", "kind"]))
            for entry in entries {
                context.standardOutput.write(
                    TSV.line([
                        String(entry.id), entry.text, String(entry.useCount),
                        entry.lastUsed.secondsDescription, String(entry.resultCount),
                        entry.kinds.name,
                    ]))
            }
        case .json:
            context.standardOutput.write(JSONWriter.array(entries.map(Self.jsonObject)) + "\n")
        }
    }

    static func jsonObject(for entry: HistoryEntry) -> String {
        var object = JSONWriter()
        object.add("id", integer: Int(entry.id))
        object.add("text", string: entry.text)
        object.add("kind", string: entry.kinds.name)
        object.add("count", integer: entry.useCount)
        object.add("result_count", integer: entry.resultCount)
        object.add("first_used", string: entry.firstUsed.secondsDescription)
        object.add("last_used", string: entry.lastUsed.secondsDescription)
        return object.object
    }
}

/// `ftsearch history delete ID... | --query TEXT`.
struct HistoryDeleteCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete past searches by id, or the one a text normalizes to.",
        discussion:
            "Ids come from 'ftsearch history list'. When one id does not exist, nothing is deleted."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The ids of the entries to delete.")
    var ids: [Int] = []

    @Option(
        help: ArgumentHelp(
            "Delete the entry for this search text instead (case, accents and spacing ignored).",
            valueName: "text"))
    var query: String?

    init() {}

    mutating func validate() throws {
        if ids.isEmpty && query == nil {
            throw ValidationError("Give the ids to delete, or --query TEXT")
        }
        if !ids.isEmpty && query != nil {
            throw ValidationError("Give either ids or --query, not both")
        }
    }

    func run(in context: CommandContext) throws {
        let history = try global.openIndex(in: context).history
        if let query {
            try history.delete(matching: query)
        } else {
            try history.delete(ids: ids.map(Int64.init))
        }
    }
}

/// `ftsearch history clear [--before DATE] [--yes]`.
struct HistoryClearCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Delete every past search, or those last used before a date.",
        discussion: "Asks for confirmation on a terminal; scripts must pass --yes.")

    @OptionGroup var global: GlobalOptions

    @Option(
        help: ArgumentHelp(
            "Only entries last used before this ISO 8601 date or time (2026-01-31, 2026-01-31T12:00:00Z).",
            valueName: "date"))
    var before: String?

    @Flag(name: .shortAndLong, help: "Do not ask for confirmation.")
    var yes = false

    init() {}

    mutating func validate() throws {
        if let before, Timestamp(iso8601: before) == nil {
            throw ValidationError(
                "--before must be an ISO 8601 date such as 2026-01-31, not '\(before)'")
        }
    }

    func run(in context: CommandContext) throws {
        let history = try global.openIndex(in: context).history
        let date = before.flatMap { Timestamp(iso8601: $0) }
        if !yes {
            try confirm(in: context, entries: date == nil ? try history.count() : nil)
        }
        let deleted = try history.clear(before: date)
        context.standardError.print(
            "Deleted \(deleted) history \(deleted == 1 ? "entry" : "entries").")
    }

    private func confirm(in context: CommandContext, entries: Int?) throws {
        guard context.isStandardInputTerminal else {
            throw ValidationError(
                "Refusing to clear the history without --yes when not on a terminal")
        }
        let what =
            entries.map { "\($0) history \($0 == 1 ? "entry" : "entries")" }
            ?? "the history entries last used before \(before ?? "")"
        context.standardError.print("Delete \(what)? [y/N]", terminator: " ")
        guard let answer = context.readLine()?.lowercased(), answer == "y" || answer == "yes" else {
            context.standardError.print("Nothing deleted.")
            throw ExitCode.failure
        }
    }
}
