import ArgumentParser
import FTSearchKit

/// `ftsearch show KIND ID`: one whole record.
struct ShowCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one person or animal: every field, extra fields and timestamps included.")

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case table, json
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The kind of record.")
    var kind: Kind

    @Argument(help: "The record's id.")
    var id: Int64

    @Option(help: "Output format.")
    var format: Format = .table

    init() {}

    func run(in context: CommandContext) throws {
        guard let record = try global.openIndex(in: context).find(kind.modelType, id: id)?.anyRecord
        else {
            throw RecordStoreError.unknownIDs(kind: kind, ids: [id])
        }
        switch format {
        case .table: context.standardOutput.write(RecordOutput.table(for: record))
        case .json: context.standardOutput.print(RecordOutput.jsonObject(for: record))
        }
    }
}
