import ArgumentParser
import FTSearchKit

/// `ftsearch add KIND --first-name ... [--set KEY=VALUE ...]`: store one new record.
struct AddCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add one person or animal, and print its id.",
        discussion: """
            A person needs a first or last name, an animal a name, as in an import. Extra fields \
            come from --set KEY=VALUE, the value read as JSON when it is JSON: --set age=42 \
            --set 'tags=["a","b"]' --set 'code="007"' (text). The record is searchable as soon \
            as the command returns.
            """)

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The kind of record to add.")
    var kind: Kind

    @OptionGroup var fields: RecordFieldOptions

    @Option(help: "Output format: the id alone, or the whole record as a JSON object.")
    var format: Format = .text

    init() {}

    mutating func validate() throws {
        try fields.validate(for: kind)
    }

    func run(in context: CommandContext) throws {
        let index = try global.openIndex(in: context, mode: .createIfMissing)
        let record = try insert(kind.modelType, into: index)
        switch format {
        case .text: context.standardOutput.print(record.id ?? 0)
        case .json: context.standardOutput.print(RecordOutput.jsonObject(for: record))
        }
    }

    private func insert<Model: RecordModel>(_ type: Model.Type, into index: SearchIndex) throws
        -> AnyRecord
    {
        try index.insert(try fields.newModel(type)).anyRecord
    }
}
