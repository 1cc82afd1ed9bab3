/// What parsing produced instead of a command to run: a usage error, or a request for help or
/// the version (which are not failures, but end the tool all the same).
public struct CommandLineError: Error, CustomStringConvertible {
    enum Kind: Equatable {
        /// `--help`, `-h` or `help`: print the help of `commandStack.last`.
        case helpRequested
        /// `--version` on the root command.
        case versionRequested
        /// A usage error: `Error: <message>`, then `Help:  <help>` when there is one.
        case usage(message: String, help: String?)
    }

    let kind: Kind
    /// The commands named on the command line up to where the problem was found; help and
    /// the usage line are about the last one.
    let commandStack: [any ParsableCommand.Type]

    /// The error message without the `Error: ` prefix, or a note for help and version requests.
    public var message: String {
        switch kind {
        case .helpRequested: "help requested"
        case .versionRequested: "version requested"
        case .usage(let message, _): message
        }
    }

    /// The same as ``message``.
    public var description: String { message }

    static func usage(
        _ message: String, help: String? = nil, commandStack: [any ParsableCommand.Type]
    ) -> CommandLineError {
        CommandLineError(kind: .usage(message: message, help: help), commandStack: commandStack)
    }
}

// The wording of each usage error, as swift-argument-parser has it.
extension CommandLineError {
    static func unknownOption(
        _ typed: String, suggestion: String?, commandStack: [any ParsableCommand.Type]
    ) -> CommandLineError {
        var message = "Unknown option '\(typed)'"
        if let suggestion { message += ". Did you mean '\(suggestion)'?" }
        return .usage(message, commandStack: commandStack)
    }

    static func unknownSubcommand(
        _ typed: String, suggestion: String?, commandStack: [any ParsableCommand.Type]
    ) -> CommandLineError {
        var message = "Unknown subcommand '\(typed)'"
        if let suggestion { message += ". Did you mean '\(suggestion)'?" }
        return .usage(message, commandStack: commandStack)
    }

    static func missingValue(
        for definition: ArgumentDefinition, typed name: Name,
        commandStack: [any ParsableCommand.Type]
    ) -> CommandLineError {
        .usage(
            "Missing value for '\(definition.errorLabel(typed: name))'",
            help: helpLine(definition, typed: name), commandStack: commandStack)
    }

    static func invalidValue(
        _ value: String, for definition: ArgumentDefinition, typed name: Name?,
        commandStack: [any ParsableCommand.Type]
    ) -> CommandLineError {
        var message = "The value '\(value)' is invalid for '\(definition.errorLabel(typed: name))'"
        let values = definition.allValues.map { "'\($0)'" }
        switch values.count {
        case 0:
            break
        case 1...2:
            message += ". Please provide one of \(values.joined(separator: " and "))."
        case 3...5:
            message +=
                ". Please provide one of \(values.dropLast().joined(separator: ", ")) or \(values.last!)."
        default:
            message += ". Please provide one of the following:\n"
            message += definition.allValues.map { "  - \($0)" }.joined(separator: "\n")
        }
        return .usage(
            message, help: helpLine(definition, typed: name), commandStack: commandStack)
    }

    static func unexpectedFlagValue(
        _ value: String, typed name: Name, commandStack: [any ParsableCommand.Type]
    ) -> CommandLineError {
        .usage(
            "The option '\(name.synopsis)' does not take any value, but '\(value)' was specified.",
            commandStack: commandStack)
    }

    static func unexpectedArguments(
        _ values: [String], commandStack: [any ParsableCommand.Type]
    ) -> CommandLineError {
        if values.count == 1 {
            return .usage("Unexpected argument '\(values[0])'", commandStack: commandStack)
        }
        let list = values.map { "'\($0)'" }.joined(separator: ", ")
        return .usage("\(values.count) unexpected arguments: \(list)", commandStack: commandStack)
    }

    static func missingArgument(
        _ definition: ArgumentDefinition, commandStack: [any ParsableCommand.Type]
    ) -> CommandLineError {
        .usage(
            "Missing expected argument '\(definition.errorLabel(typed: nil))'",
            help: helpLine(definition, typed: nil), commandStack: commandStack)
    }

    /// The `Help:` line after some errors: the argument's label and abstract.
    private static func helpLine(_ definition: ArgumentDefinition, typed name: Name?) -> String? {
        guard !definition.help.abstract.isEmpty else { return nil }
        return "\(definition.errorLabel(typed: name))  \(definition.help.abstract)"
    }
}
