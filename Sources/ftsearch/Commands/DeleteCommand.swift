import ArgumentParser
import FTSearchKit

/// `ftsearch delete KIND ID...`: all or none.
struct DeleteCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete people or animals by id.",
        discussion: """
            All in one transaction: when one id does not exist, nothing is deleted (exit 65).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The kind of record.")
    var kind: Kind

    @Argument(help: "The ids of the records to delete.")
    var ids: [Int64] = []

    init() {}

    mutating func validate() throws {
        if ids.isEmpty { throw ValidationError("Missing expected argument '<ids> ...'") }
    }

    func run(in context: CommandContext) throws {
        let count = try global.openIndex(in: context).delete(kind.modelType, ids: ids)
        let noun = count == 1 ? kind.singularNoun : kind.rawValue
        context.standardOutput.print("Deleted \(count) \(noun).")
    }
}
