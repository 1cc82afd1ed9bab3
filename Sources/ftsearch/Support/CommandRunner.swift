import ArgumentParser

/// Runs ftsearch on a command line: a Tab's request for search text is answered by
/// ``SearchTextCompletion`` before anything is parsed, ``CommandLineConventions`` reads shared
/// options before the command name and unknown command names, swift-argument-parser parses and
/// validates the rest, the command runs against a ``CommandContext``, and the outcome becomes
/// output and an exit code.
///
/// - help (`-h`, `--help`, `help <command>`) and `--version`: standard output, exit 0;
/// - usage errors and `ValidationError`: `Error: ...`, the usage line and a pointer to `--help`
///   on standard error, exit 64;
/// - an `ExitCode` thrown by a command: nothing printed, that code;
/// - library errors: `Error: <message>` with the code ``ErrorReporting`` gives them;
/// - anything else: `Error: <description>`, exit 70 (EX_SOFTWARE).
enum CommandRunner {
    /// Runs `arguments` (without the program name) in `context`, flushes its output and returns
    /// the exit code.
    static func run(_ arguments: [String], in context: CommandContext) -> Int32 {
        var code = execute(arguments, in: context)
        if !context.standardOutput.flush() && code == .success {
            let number = context.standardOutput.writeErrorNumber ?? 0
            context.standardError.write(
                "Error: Could not write to standard output (errno \(number))\n")
            code = .ioError
        }
        context.standardError.flush()
        return code.rawValue
    }

    private static func execute(_ arguments: [String], in context: CommandContext) -> ExitCode {
        if let answer = SearchTextCompletion.answer(to: arguments, environment: context.environment)
        {
            context.standardOutput.write(answer)
            return .success
        }
        do {
            var command = try CommandLineConventions.parse(
                CommandLineConventions.normalized(arguments))
            if let command = command as? any ContextualCommand {
                try command.run(in: context)
            } else {
                try command.run()
            }
            return .success
        } catch {
            return report(error, in: context)
        }
    }

    /// Prints what `error` calls for and returns the exit code.
    private static func report(_ error: any Error, in context: CommandContext) -> ExitCode {
        if let code = error as? ExitCode { return code }
        if let report = ErrorReporting.report(for: error) {
            if !report.message.isEmpty { context.standardError.write("Error: \(report.message)\n") }
            return report.exitCode
        }
        let code = FTSearch.exitCode(for: error)
        guard code != .failure else {
            context.standardError.write("Error: \(String(describing: error))\n")
            return .internalError
        }
        let message = FTSearch.fullMessage(for: error)
        let stream = code == .success ? context.standardOutput : context.standardError
        if !message.isEmpty { stream.write(message + "\n") }
        return code
    }
}
