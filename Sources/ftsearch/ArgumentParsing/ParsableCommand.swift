/// A command of the tool: its configuration, its declared options and arguments, `validate()`
/// and `run(in:)`.
///
/// ```swift
/// struct Query: ParsableCommand {
///     static let configuration = CommandConfiguration(
///         commandName: "query", abstract: "Search people and animals.")
///
///     @OptionGroup var global: GlobalOptions
///     @Argument(help: "The text to search for.") var text: String = ""
///     @Option(name: .shortAndLong, help: "How many results to show; 0 for all.") var limit = 20
///
///     mutating func validate() throws {
///         guard limit >= 0 else { throw ValidationError("--limit must be at least 0") }
///     }
///
///     func run(in context: CommandContext) throws {
///         context.standardOutput.print("searching for \(text)")
///     }
/// }
/// ```
public protocol ParsableCommand: ParsableArguments {
    /// The command's name, help texts and subcommands.
    static var configuration: CommandConfiguration { get }

    /// Does the command's work; only the command the user named (the last one) is run.
    ///
    /// The default, for commands that only group subcommands, prints the command's help.
    ///
    /// - Throws: ``ExitCode`` to end silently with a code, ``ValidationError`` for a usage
    ///   error, ``CleanExit`` for help; anything else goes through the tool's error mapping.
    mutating func run(in context: CommandContext) throws
}

extension ParsableCommand {
    /// A configuration with every part at its default: the command's name is its type name.
    public static var configuration: CommandConfiguration { CommandConfiguration() }

    /// Prints the command's help, for commands that only group subcommands.
    public mutating func run(in context: CommandContext) throws {
        throw CleanExit.helpRequest()
    }

    /// The name the user types: the configured one, or the type name in kebab case.
    static var commandName: String {
        configuration.commandName
            ?? String(describing: Self.self).convertedToKebabCase
    }

    /// Parses `arguments` (without the program name) as this command's own, without
    /// subcommands, and validates the result; for tests and for tools with a single command.
    ///
    /// ```swift
    /// let query = try Query.parse(["ann", "--limit", "5"])
    /// ```
    ///
    /// - Throws: ``CommandLineError`` for usage errors and requests for help, or whatever
    ///   `validate()` throws.
    public static func parse(_ arguments: [String]) throws -> Self {
        let parsed = try CommandParser(root: Self.self, version: nil).parse(arguments)
        guard let command = parsed.command as? Self else {
            throw CommandLineError(
                kind: .usage(message: "Expected a '\(commandName)' command", help: nil),
                commandStack: parsed.commandStack)
        }
        return command
    }
}
