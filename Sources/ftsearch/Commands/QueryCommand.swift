import ArgumentParser
import FTSearchKit

/// `ftsearch query TEXT`: ranked search (prefix, substring, exact or fuzzy), logged to history.
struct QueryCommand: ContextualCommand, SearchTextCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Search people and animals by name and company.",
        discussion: """
            Every word of TEXT must match a word in a record's first name, last name or company \
            (people) or name (animals), ignoring case and accents in every script (ø, ł, ß, ŋ, \
            Greek tonos, Cyrillic ё fold too): by \
            default as its start ('ann mül' finds Anna Müller); --match substring anywhere \
            inside it ('nna' finds Joanna; the first substring search builds the substring \
            index, once), exact as the whole word, fuzzy as its start or as \
            the whole word with typos (1 from 5 letters, 2 from 9: 'smiht' finds Smith). TEXT \
            is always literal: quotes, '*', '-' and AND/OR/NOT are plain text. Names are \
            found as typed on other keyboards too (words of 3 letters or more, without \
            --fields): 'mueller' finds \
            Müller (and 'müller' Mueller), 'ivanov' Иванов, 'papadimitriou' Παπαδημητρίου, \
            'jovanovic' Јовановић, 'فاطمه' فاطمة, 'حارثي' الحارثي. A search that finds \
            nothing suggests a correction (table and json). Empty TEXT lists every record. \
            Start TEXT with '-' after '--': ftsearch query -- -ann

            Ranking rules, in order (each decides between records the ones before tie):
              1. words: every word of TEXT matches (required)
              2. field: more words in more important fields (--weights; names > company)
              3. whole words: more words matching a whole word ('ann': Ann > Annabelle)
              4. typos: fewer (fuzzy; a spelling other than the one typed counts as one)
              5. word starts: fewer words matched only inside a word (substring)
              6. accents: more words matching the accents typed ('mül': Müller > Mullins)
              7. relevance: bm25 with the field weights
              8. order: sort name, then kind and id
            So 'han' lists every Hansen above the people whose company is Hạn Trading.
            """)

    enum Grouping: String, CaseIterable, ExpressibleByArgument {
        case company
    }

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: ArgumentHelp(
            "The text to search for, in one argument or several (ann smith = 'ann smith'); empty lists everything.",
            valueName: "text"),
        completion: SearchTextCompletion.kind)
    var words: [String] = []

    /// The search text: the words as one text, as if quoted.
    var text: String { words.joined(separator: " ") }

    @Option(help: "Which records to search.")
    var kind: KindArgument = .all

    @Option(name: .shortAndLong, help: "The most results to show; 0 for all.")
    var limit: Int = 20

    @Option(help: "How many results to skip.")
    var offset: Int = 0

    @Option(help: "How words of TEXT match words of a record.")
    var match: MatchMode = .prefix

    @Option(
        help: ArgumentHelp(
            "Match only in these fields, comma-separated (people: first_name, last_name, company; animals: name).",
            valueName: "fields"))
    var fields: FieldList?

    @Option(
        help: ArgumentHelp(
            "bm25 weights of fields, comma-separated (default: first_name=10,last_name=10,company=4,name=10).",
            valueName: "weights"))
    var weights: FieldWeights?

    @Option(
        help: ArgumentHelp(
            "Keep only the records EXPR matches, in Meilisearch's filter syntax: company = Acme AND (age >= 18 OR tags IN [vip, staff]).",
            valueName: "expr"))
    var filter: String?

    @Option(
        help: ArgumentHelp(
            "Order every match by these fields, before relevance, comma-separated: last_name:asc,age:desc (missing values last).",
            valueName: "keys"))
    var sort: String?

    @Option(
        help: ArgumentHelp(
            "Count the values of these fields over all matches, comma-separated (at most 100 a field).",
            valueName: "fields"))
    var facets: FieldList?

    @Option(help: "Output format (default: table on a terminal, else tsv).")
    var format: ResultsFormat?

    @Option(
        name: .customLong("group-by"),
        help:
            "Show people in sections per company: every match sorted by company, then as --sort and relevance order them."
    )
    var groupBy: Grouping?

    @Option(
        help:
            "When to highlight matches in tables: auto (on a terminal, unless NO_COLOR is set), always or never."
    )
    var color: ColorChoice = .auto

    @Flag(name: .shortAndLong, help: "Print only the number of matches.")
    var count = false

    @Flag(
        name: .customLong("no-history"),
        help: "Do not record this search in the history (also FTSEARCH_NO_HISTORY=1).")
    var noHistory = false

    init() {}

    mutating func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more, not \(limit)") }
        guard offset >= 0 else {
            throw ValidationError("--offset must be 0 or more, not \(offset)")
        }
        if groupBy != nil && kind == .animals {
            throw ValidationError("--group-by company applies to people; animals have no company")
        }
        do {
            try request(limit: nil).validate()
        } catch let error as FilterSyntaxError {
            throw ValidationError(error.description)
        } catch let error as SortKeySyntaxError {
            throw ValidationError(error.description)
        } catch let error as SearchRequestError {
            throw ValidationError(error.description)
        }
    }

    /// The search this invocation runs, returning at most `limit` results: `--group-by
    /// company` sorts by company first.
    private func request(limit: Int?) throws -> SearchRequest {
        let expression = filter.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        let grouping = groupBy == .company ? [SortKey(field: "company")] : []
        return SearchRequest(
            text: text, kinds: groupBy == nil ? kind.kinds : .people, limit: limit, offset: offset,
            match: match, fields: fields?.names, weights: weights?.weights ?? [:],
            filter: try expression.map { try Filter(parsing: $0) },
            sort: try grouping + (sort.map { try SortKey.parseList($0) } ?? []),
            facets: facets?.names ?? [])
    }

    func run(in context: CommandContext) throws {
        let index = try global.openIndex(in: context)
        let kinds: Set<Kind> = groupBy == nil ? kind.kinds : .people
        let request = try request(limit: count ? 0 : (limit == 0 ? nil : limit))
        try context.prepareIndexes(for: request, in: index)
        let results = try index.search(request)
        if count {
            context.standardOutput.print(results.total)
        } else {
            let format = format ?? (context.isStandardOutputTerminal ? .table : .tsv)
            var output = SearchResultsOutput(
                results: results, kinds: kinds,
                highlighter: color.isEnabled(in: context)
                    ? try index.highlighter(for: results) : nil)
            output.groupsByCompany = groupBy == .company
            output.facetFields = request.facets
            context.standardOutput.write(output.rendered(as: format))
        }
        if !noHistory && !context.isHistoryDisabled {
            context.recordSearch(text, kinds: kinds, resultCount: results.total, in: index)
        }
    }
}
