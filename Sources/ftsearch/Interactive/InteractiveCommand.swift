import ArgumentParser
import FTSearchKit

/// `ftsearch interactive` (`ftsearch i`): search as you type on the terminal, then print the
/// chosen record on standard output, as fzf does.
struct InteractiveCommand: ContextualCommand, SearchTextCommand {
    static let configuration = CommandConfiguration(
        commandName: "interactive",
        abstract: "Search as you type, and print the record you choose.",
        discussion: """
            Draws on the terminal (/dev/tty) and prints the chosen record on standard output, \
            so that 'ftsearch interactive | cut -f2' and 'id=$(ftsearch i | cut -f2)' work. \
            With the query line empty, the list shows past searches; as you type, the ranked \
            results of the text, with past searches that complete it above them. Keys: Up/Down or \
            Ctrl-P/Ctrl-N move, PgUp/PgDn page, Enter chooses a result (or puts a past search \
            in the query line), Tab completes with the top suggestion, Ctrl-D deletes the \
            selected past search, Ctrl-G shows sections by company, Ctrl-F edits a filter in \
            Meilisearch's syntax (Enter or Ctrl-F goes back; the status line shows the \
            filter and the top companies' counts), Ctrl-U clears the line, \
            Esc or Ctrl-C quits with exit code 1. The chosen search is recorded in the history \
            (unless FTSEARCH_NO_HISTORY=1). Without a terminal, exits 69.
            """,
        aliases: ["i"])

    /// How the chosen record is printed.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        /// One tab-separated line, without a header: kind, id, score, fields.
        case tsv
        /// One JSON object, as one element of `query --format json`'s results.
        case json
    }

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: ArgumentHelp(
            "The text on the query line to start with, in one argument or several (ann smith = 'ann smith').",
            valueName: "text"),
        completion: SearchTextCompletion.kind)
    var words: [String] = []

    @Option(help: "Which records to search.")
    var kind: KindArgument = .all

    @Option(help: "How words of the text match words of a record.")
    var match: MatchMode = .prefix

    @Option(help: "How to print the chosen record.")
    var format: Format = .tsv

    init() {}

    func run(in context: CommandContext) throws {
        let terminal = try TerminalSession()
        let index = try global.openIndex(in: context)
        // Before the screen: a keystroke would otherwise wait, silently, for the substring
        // index's first build.
        try context.prepareIndexes(for: match, of: kind.kinds, in: index)
        let worker = SearchWorker(index: index, kinds: kind.kinds, match: match)
        let loop = SearchScreenLoop(
            terminal: terminal, worker: worker,
            frames: FrameWriter(usesColor: (context.environment["NO_COLOR"] ?? "").isEmpty),
            initialText: words.joined(separator: " "))
        switch try loop.run() {
        case .signaled(let signal):
            TerminalSignals.endProcess(by: signal)
        case .finished(.cancelled):
            throw ExitCode.failure
        case .finished(.chosen(let hit, let query, let total)):
            if !context.isHistoryDisabled {
                worker.finish { index in
                    context.recordSearch(query, kinds: kind.kinds, resultCount: total, in: index)
                }
            }
            context.standardOutput.write(printed(hit))
        }
    }

    /// The chosen record as `--format` says.
    func printed(_ hit: SearchHit) -> String {
        switch format {
        case .tsv:
            SearchResultsOutput.tsvLine(
                for: hit, fields: SearchResultsOutput.fields(of: kind.kinds))
        case .json:
            SearchResultsOutput.jsonObject(for: hit) + "\n"
        }
    }
}
