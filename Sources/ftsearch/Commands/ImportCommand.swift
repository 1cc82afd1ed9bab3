import ArgumentParser
import FTSearchKit

/// `ftsearch import FILE...`: load people and animals, all or nothing.
struct ImportCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import people or animals from JSON, NDJSON, CSV or TSV files.",
        discussion: """
            Accepts a JSON array of objects, a JSON object {"people": [...], "animals": [...]}, \
            NDJSON (one object per line), and CSV or TSV with a header row. Fields match \
            ignoring case, '_', '-' and spaces (first_name, firstName, First Name), with the \
            aliases given_name, surname, family_name, organization and employer; other fields \
            are kept as extra fields. A record with an existing integer id replaces that record.

            One import is one transaction: at the first invalid record it reports FILE:LINE and \
            the reason, exits 65 and leaves the database as it was; with --skip-invalid it \
            reports and skips every invalid record and imports the rest.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The files to import; - reads standard input.", completion: .file())
    var files: [String] = []

    @Option(
        help:
            "The kind of every record (default: from the fields: first/last name → people, name → animals)."
    )
    var kind: Kind?

    @Option(
        help:
            "The format of every file (default: from the extension, else guessed from the content)."
    )
    var format: InputFormat?

    @Flag(
        help:
            "Delete the stored records of the kinds being imported first (in the same transaction)."
    )
    var replace = false

    @Flag(
        name: .customLong("skip-invalid"),
        help: "Skip invalid records, reporting each, instead of stopping.")
    var skipInvalid = false

    @Flag(name: .shortAndLong, help: "Print no progress and no summary.")
    var quiet = false

    init() {}

    mutating func validate() throws {
        if files.isEmpty { throw ValidationError("Missing expected argument '<files> ...'") }
        if files.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("Standard input ('-') can be read only once")
        }
    }

    func run(in context: CommandContext) throws {
        var progress = ProgressLine(
            output: context.standardError,
            isEnabled: !quiet && context.isStandardErrorTerminal)
        let started = ContinuousClock.now
        let summary = try SearchIndex.importFiles(
            files, format: format, intoDatabaseAt: global.databasePath(in: context),
            options: ImportOptions(kind: kind, replace: replace, skipInvalid: skipInvalid),
            clock: try context.clock(), lockWaiting: global.lockWaiting(in: context),
            onSkip: { problem in
                progress.clear()
                context.standardError.print("warning: \(problem) (skipped)")
            },
            onProgress: { progress.show($0) })
        progress.clear()
        if !quiet {
            context.standardError.print(
                Self.summaryLine(summary, seconds: started.duration(to: .now).seconds))
        }
    }

    /// `Imported 12 people (3 updated) and 5 animals, skipped 1, in 0.04 s.`
    static func summaryLine(_ summary: ImportSummary, seconds: Double) -> String {
        let parts = summary.kinds.map { kind -> String in
            let updated = summary.updated[kind, default: 0]
            let total = summary.inserted[kind, default: 0] + updated
            return RecordCount(total, kind).description
                + (updated > 0 ? " (\(Grouped(updated)) updated)" : "")
        }
        let what = parts.isEmpty ? "nothing" : parts.joined(separator: " and ")
        let skipped = summary.skipped > 0 ? ", skipped \(Grouped(summary.skipped))" : ""
        return "Imported \(what)\(skipped), in \(Fixed(seconds, decimals: 2)) s."
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
