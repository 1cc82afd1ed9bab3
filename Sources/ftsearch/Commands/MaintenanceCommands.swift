import ArgumentParser
import FTSearchKit

/// `ftsearch check`: SQLite and FTS5 integrity checks.
struct CheckCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the database and its full-text indexes.",
        discussion:
            "Runs SQLite's integrity_check and FTS5's integrity-check of every index. Prints 'ok' and exits 0, or lists the problems and exits 65."
    )

    @OptionGroup var global: GlobalOptions

    init() {}

    func run(in context: CommandContext) throws {
        let problems = try global.openIndex(in: context).check()
        guard problems.isEmpty else {
            for problem in problems {
                let advice =
                    switch problem {
                    case .indexMismatch, .rowSizesMismatch, .sortCodesMismatch:
                        " (run 'ftsearch rebuild')"
                    case .integrity: ""
                    }
                context.standardError.print("Error: \(problem)\(advice)")
            }
            throw ExitCode.dataError
        }
        context.standardOutput.print("ok")
    }
}

/// `ftsearch optimize`: merge index segments, analyze, checkpoint, vacuum.
struct OptimizeCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "optimize",
        abstract: "Compact the full-text indexes and the database file.",
        discussion:
            "Runs FTS5 'optimize', ANALYZE, a WAL checkpoint, and VACUUM when it would reclaim space."
    )

    @OptionGroup var global: GlobalOptions

    init() {}

    func run(in context: CommandContext) throws {
        let sizes = try global.openIndex(in: context).optimize()
        context.standardOutput.print(
            "size before: \(ByteCount(sizes.before)), after: \(ByteCount(sizes.after))")
    }
}

/// `ftsearch rebuild`: rebuild every index from its content table.
struct RebuildCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Rebuild the full-text indexes from the stored records.",
        discussion:
            "Repairs an index that 'ftsearch check' reports as out of step with its records.")

    @OptionGroup var global: GlobalOptions

    init() {}

    func run(in context: CommandContext) throws {
        try global.openIndex(in: context).rebuild()
        context.standardOutput.print("ok")
    }
}
