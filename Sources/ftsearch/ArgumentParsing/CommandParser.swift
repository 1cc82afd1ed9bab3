/// Turns the command line into the command to run: finds the subcommand path, reads each
/// command's share of the arguments into a fresh instance, and validates them.
///
/// Subcommands are found by name at the first positional token of each level; a command with a
/// default subcommand hands everything to it when no subcommand is named (`ftsearch history` is
/// `ftsearch history list`). `help [subcommand ...]` after the root, `-h` and `--help` anywhere
/// before `--` ask for the help of the deepest command named; `--version` before any subcommand
/// asks for the version.
struct CommandParser {
    let root: any ParsableCommand.Type
    let version: String?

    /// A command ready to run, with the path of commands that leads to it.
    struct Parsed {
        var commandStack: [any ParsableCommand.Type]
        var command: any ParsableCommand
    }

    /// Parses and validates `arguments` (without the program name).
    ///
    /// - Throws: ``CommandLineError`` for usage errors (including a ``ValidationError`` from a
    ///   `validate()`) and requests for help or the version; any other error a `validate()`
    ///   throws, unchanged.
    func parse(_ arguments: [String]) throws -> Parsed {
        if !root.configuration.subcommands.isEmpty, arguments.first == "help" {
            throw CommandLineError(
                kind: .helpRequested, commandStack: commandStack(named: arguments.dropFirst()))
        }

        let (stack, levels) = try resolveCommands(arguments)
        for tokens in levels where tokens.prefix(while: { $0 != "--" }).contains(where: isHelpToken)
        {
            throw CommandLineError(kind: .helpRequested, commandStack: stack)
        }
        if version != nil, levels[0].prefix(while: { $0 != "--" }).contains("--version") {
            throw CommandLineError(kind: .versionRequested, commandStack: [root])
        }

        var commands: [any ParsableCommand] = []
        for (depth, type) in stack.enumerated() {
            let command = type.init()
            let scanner = ArgumentScanner(
                definitions: command.argumentDefinitions(), commandStack: Array(stack[...depth]),
                builtInLongNames: builtInLongNames(depth: depth))
            try scanner.scan(levels[depth])
            commands.append(command)
        }
        for depth in commands.indices {
            do {
                try commands[depth].validateOptionGroups()
                try commands[depth].validate()
            } catch let error as ValidationError {
                throw CommandLineError.usage(error.message, commandStack: Array(stack[...depth]))
            }
        }
        return Parsed(commandStack: stack, command: commands.last!)
    }

    private func isHelpToken(_ token: String) -> Bool {
        token == "--help" || token == "-h"
    }

    private func builtInLongNames(depth: Int) -> [String] {
        depth == 0 && version != nil ? ["--version", "--help"] : ["--help"]
    }

    /// The commands named after `help`, as far as they name real subcommands.
    func commandStack(named names: ArraySlice<String>) -> [any ParsableCommand.Type] {
        var stack = [root]
        for name in names where !name.hasPrefix("-") {
            guard let subcommand = stack.last!.subcommand(named: name) else { break }
            stack.append(subcommand)
        }
        return stack
    }

    /// Splits the arguments into one share per command on the path to the command to run.
    private func resolveCommands(_ arguments: [String]) throws(CommandLineError)
        -> (stack: [any ParsableCommand.Type], levels: [[String]])
    {
        var stack = [root]
        var levels: [[String]] = []
        var rest = arguments[...]

        while true {
            let command = stack.last!
            let configuration = command.configuration
            guard !configuration.subcommands.isEmpty else {
                levels.append(Array(rest))
                break
            }

            // Skip this command's own options (and their values) up to the first positional.
            let definitions = command.init().argumentDefinitions()
            let scanner = ArgumentScanner(
                definitions: definitions, commandStack: stack,
                builtInLongNames: builtInLongNames(depth: stack.count - 1))
            var candidate: Int?
            var sawBuiltIn = false
            var index = rest.startIndex
            while index < rest.endIndex {
                let token = rest[index]
                if token == "--" { break }
                index += 1
                if isHelpToken(token)
                    || (stack.count == 1 && version != nil && token == "--version")
                {
                    sawBuiltIn = true
                } else if token.isOptionLike {
                    guard let consumesNext = scanner.consumesNextToken(token) else { break }
                    if consumesNext { index += 1 }
                } else {
                    candidate = index - 1
                    break
                }
            }

            if let candidate, let subcommand = command.subcommand(named: rest[candidate]) {
                levels.append(Array(rest[..<candidate]))
                stack.append(subcommand)
                rest = rest[(candidate + 1)...]
                continue
            }
            if sawBuiltIn {
                levels.append(Array(rest))
                break
            }
            let suggestion = candidate.flatMap { candidate in
                closestMatch(
                    to: rest[candidate],
                    among: configuration.subcommands.map { $0.commandName })
            }
            if let defaultSubcommand = configuration.defaultSubcommand {
                // A near miss of a subcommand name is a typo, unless the default subcommand
                // takes positional arguments and could want it.
                if let candidate, let suggestion,
                    !defaultSubcommand.init().argumentDefinitions().contains(where: {
                        $0.kind == .positional
                    })
                {
                    throw .unknownSubcommand(
                        rest[candidate], suggestion: suggestion, commandStack: stack)
                }
                levels.append([])
                stack.append(defaultSubcommand)
                continue
            }
            if let candidate, !definitions.contains(where: { $0.kind == .positional }) {
                throw .unknownSubcommand(
                    rest[candidate], suggestion: suggestion, commandStack: stack)
            }
            levels.append(Array(rest))
            break
        }
        return (stack, levels)
    }
}

extension ParsableCommand {
    /// The direct subcommand called `name`, if any.
    static func subcommand(named name: String) -> (any ParsableCommand.Type)? {
        configuration.subcommands.first { $0.commandName == name }
    }
}
