#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tool's entry point: parses the command line, validates, runs the command, and turns the
/// outcome into output and an exit code.
///
/// ```swift
/// // main.swift
/// CommandLineTool(root: FTSearch.self, version: "0.1.0", errorReport: report(for:)).main()
/// ```
///
/// Outcomes, following swift-argument-parser and sysexits(3):
/// - help (`-h`, `--help`, `help <command>`) and `--version`: standard output, exit 0;
/// - usage errors and ``ValidationError``: `Error: ...`, the usage line and a pointer to
///   `--help` on standard error, exit 64;
/// - ``ExitCode`` thrown by a command: nothing printed, that code;
/// - other errors: `Error: <message>` on standard error with the code from the `errorReport`
///   hook or the error's own ``ExitCodeProviding`` conformance, else its description and 70.
public struct CommandLineTool: Sendable {
    /// The command at the top of the tree: its name starts every usage line.
    public var root: any ParsableCommand.Type
    /// What `--version` prints; no `--version` option when nil.
    public var version: String?
    /// Maps an error thrown by `validate()` or `run(in:)` to its message and exit code; nil
    /// leaves it to the default handling.
    public var errorReport: @Sendable (any Error) -> (any ExitCodeProviding)?

    /// A tool whose command tree starts at `root`.
    ///
    /// - Parameters:
    ///   - root: The top command; its name starts every usage line.
    ///   - version: What `--version` prints; no `--version` option when nil.
    ///   - errorReport: Maps errors from `validate()` and `run(in:)` to a message and exit code;
    ///     returning nil leaves an error to the default handling.
    public init(
        root: any ParsableCommand.Type, version: String? = nil,
        errorReport: @escaping @Sendable (any Error) -> (any ExitCodeProviding)? = { _ in nil }
    ) {
        self.root = root
        self.version = version
        self.errorReport = errorReport
    }

    /// Runs the tool on `arguments` (without the program name), flushes the context's output
    /// and returns the exit code.
    public func main(arguments: [String], context: CommandContext) -> Int32 {
        var code = execute(arguments: arguments, context: context)
        if !context.standardOutput.flush() && code == 0 {
            let number = context.standardOutput.writeErrorNumber ?? 0
            context.standardError.write(
                "Error: Could not write to standard output (errno \(number))\n")
            code = ExitCode.ioError.rawValue
        }
        context.standardError.flush()
        return code
    }

    /// Runs the tool on this process's arguments and context, and exits with its exit code.
    public func main() -> Never {
        let code = main(arguments: Array(CommandLine.arguments.dropFirst()), context: .current())
        exit(code)
    }

    /// Parses and validates `arguments` (without the program name) and returns the command
    /// the user named, ready to run; for tests.
    ///
    /// - Throws: ``CommandLineError`` for usage errors and help or version requests, or
    ///   whatever a `validate()` throws.
    public func parse(_ arguments: [String]) throws -> any ParsableCommand {
        try CommandParser(root: root, version: version).parse(arguments).command
    }

    /// The help text of the command at `path` below the root (empty for the root itself), as
    /// `ftsearch help <path>` prints it.
    public func helpText(for path: [String] = []) -> String {
        let stack = CommandParser(root: root, version: version).commandStack(named: path[...])
        return HelpGenerator(commandStack: stack, version: version).rendered()
    }

    private func execute(arguments: [String], context: CommandContext) -> Int32 {
        let parsed: CommandParser.Parsed
        do {
            parsed = try CommandParser(root: root, version: version).parse(arguments)
        } catch {
            return report(error, commandStack: [root], context: context)
        }
        do {
            var command = parsed.command
            try command.run(in: context)
            return ExitCode.success.rawValue
        } catch {
            return report(error, commandStack: parsed.commandStack, context: context)
        }
    }

    /// Prints what `error` calls for and returns the exit code.
    private func report(
        _ error: any Error, commandStack: [any ParsableCommand.Type], context: CommandContext
    ) -> Int32 {
        switch error {
        case let error as CommandLineError:
            switch error.kind {
            case .helpRequested:
                context.standardOutput.write(
                    HelpGenerator(commandStack: error.commandStack, version: version).rendered())
                return ExitCode.success.rawValue
            case .versionRequested:
                context.standardOutput.write((version ?? "") + "\n")
                return ExitCode.success.rawValue
            case .usage(let message, let help):
                writeUsageError(
                    message, help: help, commandStack: error.commandStack, context: context)
                return ExitCode.usage.rawValue
            }
        case let error as ExitCode:
            return error.rawValue
        case let error as CleanExit:
            switch error.kind {
            case .helpRequest:
                context.standardOutput.write(
                    HelpGenerator(commandStack: commandStack, version: version).rendered())
            case .message(let text):
                context.standardOutput.write(text + "\n")
            }
            return ExitCode.success.rawValue
        case let error as ValidationError:
            writeUsageError(error.message, help: nil, commandStack: commandStack, context: context)
            return ExitCode.usage.rawValue
        default:
            if let report = errorReport(error) ?? (error as? any ExitCodeProviding) {
                if !report.message.isEmpty {
                    context.standardError.write("Error: \(report.message)\n")
                }
                return report.exitCode
            }
            context.standardError.write("Error: \(String(describing: error))\n")
            return ExitCode.internalError.rawValue
        }
    }

    private func writeUsageError(
        _ message: String, help: String?, commandStack: [any ParsableCommand.Type],
        context: CommandContext
    ) {
        var text = "Error: \(message)\n"
        if let help { text += "Help:  \(help)\n" }
        text += HelpGenerator(commandStack: commandStack, version: version).usageForErrors + "\n"
        context.standardError.write(text)
    }
}
