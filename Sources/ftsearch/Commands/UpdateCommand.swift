import ArgumentParser
import FTSearchKit

/// `ftsearch update KIND ID [--company ...] [--set KEY=VALUE ...] [--unset KEY ...]`.
struct UpdateCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change some fields of one person or animal.",
        discussion: """
            Only the fields given change; created_at is kept and updated_at set to now \
            ($FTSEARCH_NOW when set). An unknown id or a record left without a name is an \
            error (exit 65), and nothing changes.
            """)

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The kind of record.")
    var kind: Kind

    @Argument(help: "The record's id.")
    var id: Int64

    @OptionGroup var fields: RecordFieldOptions

    @Option(help: ArgumentHelp("Remove an extra field. Repeatable.", valueName: "key"))
    var unset: [String] = []

    @Option(help: "Output format: a confirmation, or the whole record as a JSON object.")
    var format: Format = .text

    init() {}

    mutating func validate() throws {
        try fields.validate(for: kind)
        if fields.isEmpty && unset.isEmpty {
            throw ValidationError("Nothing to change: give a field, --set or --unset")
        }
    }

    func run(in context: CommandContext) throws {
        let record = try update(kind.modelType, in: try global.openIndex(in: context))
        switch format {
        case .text: context.standardOutput.print("Updated \(kind.singularNoun) \(id).")
        case .json: context.standardOutput.print(RecordOutput.jsonObject(for: record))
        }
    }

    private func update<Model: RecordModel>(_ type: Model.Type, in index: SearchIndex) throws
        -> AnyRecord
    {
        try index.update(type, id: id) { model in
            model = try fields.applied(to: model, unsetting: unset)
        }.anyRecord
    }
}
