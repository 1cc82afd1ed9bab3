import ArgumentParser

/// The conventions git, cargo and ripgrep users expect that swift-argument-parser does not
/// apply by itself, applied to the arguments before it parses them. Everything is read from
/// the command tree (``FTSearch``'s subcommands) and from ``GlobalOptions``'s own declarations,
/// so nothing here repeats a command or option name.
///
/// - Options shared by every command (``GlobalOptions``: `--db`) are accepted before the
///   command name: `ftsearch --db team.sqlite query ann` is `ftsearch query --db team.sqlite ann`.
/// - A first word that names no command is an unknown command, with the nearest name offered:
///   `Error: Unknown command 'quary'. Did you mean 'query'?`, whatever follows it.
enum CommandLineConventions {
    /// The arguments as the parser should read them, or the usage error they are.
    static func normalized(_ arguments: [String]) throws(ValidationError) -> [String] {
        let (commandIndex, leading) = commandPosition(in: arguments)
        guard let commandIndex else { return arguments }
        let word = arguments[commandIndex]
        let root = FTSearch.self
        guard let command = subcommand(named: word, of: root) else {
            if word == "help" { return arguments }
            throw unknownCommand(word, among: root.configuration.subcommands)
        }
        guard leading > 0 else { return arguments }
        // Descend through nested command names (`history list`), then put the shared options
        // after the last of them, where the command that declares them reads them.
        var end = commandIndex + 1
        var current: any ParsableCommand.Type = command
        while end < arguments.count, let next = subcommand(named: arguments[end], of: current) {
            current = next
            end += 1
        }
        return Array(arguments[commandIndex..<end]) + arguments[..<leading]
            + arguments[end...]
    }

    /// The command `arguments` ask for, parsed and validated.
    ///
    /// A line that names a command without subcommands (`query ann --limit 5`) is first parsed
    /// by that command alone, which skips the root's pass over the line and its argument sets:
    /// a fifth of what parsing costs, paid by every `query` and `suggest` (a completion call,
    /// `---completion ...`, names no command first and is parsed from the root, unless
    /// ``SearchTextCompletion`` answered it before). When
    /// that parse fails for any reason (help, a usage error, a validation error), the whole
    /// line is parsed from the root, so every message, usage line and exit code is the one
    /// the full command tree gives.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        var command: any ParsableCommand.Type = FTSearch.self
        var end = 0
        while end < arguments.count, let next = subcommand(named: arguments[end], of: command) {
            command = next
            end += 1
        }
        // A help request comes back as the parser's own help command, not as an error.
        if end > 0, command.configuration.subcommands.isEmpty,
            let parsed = try? command.parseAsRoot(Array(arguments[end...])),
            type(of: parsed) == command
        {
            return parsed
        }
        return try FTSearch.parseAsRoot(arguments)
    }

    /// Where the command name is: the first word not starting with `-` that everything before
    /// it parses as ``GlobalOptions`` (so `--db query query` finds the second `query`), and how
    /// many arguments precede it. Nil when there is no such word (`--version`, `---completion`,
    /// no arguments at all).
    private static func commandPosition(in arguments: [String]) -> (Int?, Int) {
        guard let first = arguments.first else { return (nil, 0) }
        guard first.hasPrefix("-") else { return (0, 0) }
        guard first != "--", !first.hasPrefix("---") else { return (nil, 0) }
        for index in arguments.indices.dropFirst() where !arguments[index].hasPrefix("-") {
            if (try? GlobalOptions.parse(Array(arguments[..<index]))) != nil {
                return (index, index)
            }
        }
        return (nil, 0)
    }

    /// The subcommand of `command` called `name` (or one of its aliases).
    static func subcommand(named name: String, of command: any ParsableCommand.Type)
        -> (any ParsableCommand.Type)?
    {
        command.configuration.subcommands.first { subcommand in
            let configuration = subcommand.configuration
            return configuration.commandName == name || configuration.aliases.contains(name)
        }
    }

    /// The error for `word` where a command name was expected, naming the nearest command
    /// when one is within two edits.
    static func unknownCommand(_ word: String, among commands: [any ParsableCommand.Type])
        -> ValidationError
    {
        let names = commands.compactMap { $0.configuration.commandName }
        let nearest =
            names
            .map { (name: $0, distance: editDistance(word, $0)) }
            .filter { $0.distance <= min(2, max(1, $0.name.count / 3)) }
            .min { $0.distance < $1.distance }
        guard let nearest else { return ValidationError("Unknown command '\(word)'") }
        return ValidationError("Unknown command '\(word)'. Did you mean '\(nearest.name)'?")
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and
    /// transpositions of adjacent characters each count one.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
