import ArgumentParser
import FTSearchKit

/// `ftsearch suggest PREFIX`: completions from history and the index, for scripts.
struct SuggestCommand: ContextualCommand, SearchTextCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Suggest searches that complete a prefix.",
        discussion: """
            Past searches whose text starts with PREFIX come first, then those with a later word \
            starting with it; when they are fewer than --limit, words of the indexed names and \
            companies fill up the list. Matching ignores case and accents. Searches that found \
            nothing are left out unless --include-empty. Prints one suggestion per line, ready \
            for 'while read', fzf or compgen. Suggest itself is not recorded in the history.
            """)

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case lines, json, tsv
    }

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: ArgumentHelp(
            "The start of a search, in one argument or several (ann sm = 'ann sm'); empty gives the top of the history.",
            valueName: "prefix"),
        completion: SearchTextCompletion.kind)
    var words: [String] = []

    /// The prefix: the words as one text, as if quoted.
    var prefix: String { words.joined(separator: " ") }

    @Option(name: .shortAndLong, help: "The most suggestions to give.")
    var limit: Int = 10

    @Option(help: "Suggest searches of these records.")
    var kind: KindArgument = .all

    @Option(help: "How to order past searches: by count, by last use, or by count weighted by age.")
    var by: SuggestionOptions.Order = .frequency

    @Option(help: "Where suggestions come from.")
    var source: SuggestionSourceArgument = .all

    @Flag(
        name: .customLong("include-empty"), help: "Also suggest past searches that found nothing.")
    var includeEmpty = false

    @Option(help: "Output format.")
    var format: Format = .lines

    init() {}

    mutating func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be 1 or more, not \(limit)") }
    }

    func run(in context: CommandContext) throws {
        let index: SearchIndex
        do {
            index = try global.openIndex(in: context)
        } catch DatabaseOpenError.missing {
            return write([], in: context)  // nothing searched or imported yet: nothing to suggest
        }
        let options = SuggestionOptions(
            limit: limit, kinds: kind.kinds, order: by, sources: source.sources,
            includesEmptyResults: includeEmpty)
        write(try index.suggestions(forPrefix: prefix, options: options), in: context)
    }

    private func write(_ suggestions: [Suggestion], in context: CommandContext) {
        switch format {
        case .lines:
            context.standardOutput.write(
                suggestions.map { TextTable.clean($0.text) + "\n" }.joined())
        case .tsv:
            context.standardOutput.write(TSV.line(["text", "source", "count", "last_used"]))
            for suggestion in suggestions {
                context.standardOutput.write(
                    TSV.line([
                        suggestion.text, suggestion.source.rawValue, String(suggestion.count),
                        suggestion.lastUsed?.secondsDescription ?? "",
                    ]))
            }
        case .json:
            let objects = suggestions.map { suggestion in
                var object = JSONWriter()
                object.add("text", string: suggestion.text)
                object.add("source", string: suggestion.source.rawValue)
                object.add("count", integer: suggestion.count)
                object.add("last_used", string: suggestion.lastUsed?.secondsDescription)
                return object.object
            }
            context.standardOutput.write(JSONWriter.array(objects) + "\n")
        }
    }
}
