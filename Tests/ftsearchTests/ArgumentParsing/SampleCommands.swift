@testable import ftsearch

// A small command tree in the shape of the real tool, used by the parser tests:
//
//   sample query [<text>] [--db <path>] [--limit <limit>] [--kind <kind>] ...
//   sample import <file> --format <format>
//   sample history [list] [--limit <limit>]
//   sample history delete <ids> ...
//   sample history clear [--yes]

enum SampleKind: String, CaseIterable, ExpressibleByArgument {
    case people, animals, all
}

enum SampleFormat: String, CaseIterable, ExpressibleByArgument {
    case table, json, tsv
}

struct SampleGlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The index database.", valueName: "path"))
    var db = "index.sqlite"

    mutating func validate() throws {
        guard !db.isEmpty else { throw ValidationError("--db must not be empty") }
    }
}

struct SampleTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "A sample search tool.",
        subcommands: [SampleQuery.self, SampleImport.self, SampleHistory.self])
}

struct SampleQuery: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Search people and animals.",
        discussion: "Every word must match; the last one may be a prefix.")

    @OptionGroup var global: SampleGlobalOptions
    @Argument(help: "The text to search for.") var text: String = ""
    @Option(name: .shortAndLong, help: "How many results to show; 0 for all.") var limit = 20
    @Option(help: "Which records to search.") var kind: SampleKind = .all
    @Option(help: "Output format.") var format: SampleFormat?
    @Option(name: .customLong("field"), help: "A field to show; repeat for more.")
    var fields: [String] = []
    @Flag(name: .shortAndLong, help: "Print only the number of matches.") var count = false
    @Flag(inversion: .prefixedNo, help: "Record the search in history.") var history = true

    mutating func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be at least 0") }
    }

    func run(in context: CommandContext) throws {
        context.standardOutput.print(
            "query text=\(text) limit=\(limit) kind=\(kind) format=\(format.map(\.rawValue) ?? "-")",
            "fields=\(fields) count=\(count) history=\(history) db=\(global.db)")
    }
}

/// What the import command's run throws, to test the tool's error reporting.
enum SampleLibraryError: Error {
    case fileNotFound(String)
    case corrupt
}

struct SampleAppError: ExitCodeProviding {
    var exitCode: Int32 { 65 }
    var message: String { "line 3: unterminated string" }
}

struct SampleImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import records from a file.")

    @Argument(help: "The file to import.") var file: String
    @Option(help: "The format of the file.") var format: SampleFormat

    func run(in context: CommandContext) throws {
        switch file {
        case "missing.csv": throw SampleLibraryError.fileNotFound(file)
        case "corrupt.csv": throw SampleLibraryError.corrupt
        case "bad.csv": throw SampleAppError()
        case "quiet.csv": throw ExitCode(3)
        case "usage.csv": throw ValidationError("cannot import from a usage file")
        default: context.standardOutput.print("imported \(file) as \(format.rawValue)")
        }
    }
}

struct SampleHistory: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show or change the search history.",
        subcommands: [SampleHistoryList.self, SampleHistoryDelete.self, SampleHistoryClear.self],
        defaultSubcommand: SampleHistoryList.self)
}

struct SampleHistoryList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List recent searches.")

    @Option(help: "How many entries to show.") var limit = 10

    func run(in context: CommandContext) throws {
        context.standardOutput.print("list limit=\(limit)")
    }
}

struct SampleHistoryDelete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete history entries.")

    @Argument(help: "The ids of the entries to delete.") var ids: [Int]

    mutating func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("Give at least one id to delete.") }
    }

    func run(in context: CommandContext) throws {
        context.standardOutput.print("delete", ids.map(String.init).joined(separator: " "))
    }
}

struct SampleHistoryClear: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Delete the whole history.")

    @Flag(name: .shortAndLong, help: "Do not ask for confirmation.") var yes = false

    func run(in context: CommandContext) throws {
        if !yes {
            context.standardError.write("Delete the whole history? [y/N] ")
            guard context.readLine() == "y" else { throw ExitCode(1) }
        }
        context.standardOutput.print("cleared")
    }
}

/// The result of running the sample tool with captured streams.
struct ToolRun {
    var exitCode: Int32
    var standardOutput: String
    var standardError: String
}

let sampleTool = CommandLineTool(root: SampleTool.self, version: "1.2.3") { error in
    switch error {
    case SampleLibraryError.fileNotFound(let path):
        ErrorReport(exitCode: 66, message: "No such file: \(path)")
    default:
        nil
    }
}

/// Runs the sample tool on `arguments` and captures what it printed.
func runSample(_ arguments: [String], input: [String] = []) -> ToolRun {
    let context = CommandContext.capturing(input: input)
    let code = sampleTool.main(arguments: arguments, context: context)
    return ToolRun(
        exitCode: code, standardOutput: context.standardOutput.capturedText,
        standardError: context.standardError.capturedText)
}

/// Parses `arguments` with the sample tool and returns the command, which must be a `T`.
func parseSample<T: ParsableCommand>(_ arguments: [String], as type: T.Type = T.self) throws -> T {
    let command = try sampleTool.parse(arguments)
    guard let typed = command as? T else {
        throw ValidationError("parsed \(Swift.type(of: command)), expected \(T.self)")
    }
    return typed
}
