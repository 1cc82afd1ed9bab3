import ArgumentParser
import FTSearchKit

/// `ftsearch export`: every record, in a format `ftsearch import` reads back exactly.
struct ExportCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every record, with its id, extra fields and timestamps, for import.",
        discussion: """
            Records come in id order, streamed in constant memory. json is {"people": [...], \
            "animals": [...]}; ndjson, csv and tsv hold one kind (--kind people or animals). \
            csv and tsv have a column per extra field; one that is not text in every record is \
            named NAME:json and holds JSON values (empty: no such field). Exporting, importing \
            into an empty database and exporting again gives the same bytes. The ndjson export \
            loads into Meilisearch and Typesense as it is (the id is text).

            --output FILE, a regular file, is written through a temporary file beside it and \
            renamed at the end (a symbolic link is followed to the file it names, whose mode is \
            kept); an existing FILE is replaced only with --force. A device, a FIFO, a socket \
            or /dev/stdout is written directly, and its write errors reported (/dev/full: no \
            space left on device, exit 74).
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "The records to export.")
    var kind: KindArgument = .all

    @Option(help: "The format (default: from the --output extension, else json).")
    var format: InputFormat?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write to this file; - is standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Replace an existing --output file.")
    var force = false

    init() {}

    /// The format chosen: `--format`, else the extension of `--output`, else JSON.
    var chosenFormat: InputFormat {
        format ?? output.flatMap(InputFormat.init(path:)) ?? .json
    }

    mutating func validate() throws {
        if chosenFormat != .json && kind == .all {
            throw ValidationError(
                "\(chosenFormat.rawValue) holds one kind of record: add --kind people or --kind animals"
            )
        }
        if force && output == nil { throw ValidationError("--force needs --output") }
    }

    func run(in context: CommandContext) throws {
        let index = try global.openIndex(in: context)
        guard let output, output != "-" else {
            try index.export(kind.kinds, as: chosenFormat, to: context.standardOutput)
            return
        }
        let summary = try index.export(
            kind.kinds, as: chosenFormat, toFile: output, overwrite: force)
        let counts = kind.kinds.inOrder.map { kind in
            let count = summary.counts[kind, default: 0]
            return "\(count) \(count == 1 ? kind.singularNoun : kind.rawValue)"
        }
        context.standardError.print("Exported \(counts.joined(separator: " and ")) to \(output).")
    }
}
