/// Reads one command's share of the command line into its definitions: options in any of their
/// spellings, flags, `--`, and then the positional arguments in order.
///
/// Accepted spellings, as in swift-argument-parser and getopt:
/// `--limit 5`, `--limit=5`, `-l 5`, `-l5`, `-l=5`, combined short flags `-cv` (the last of
/// them may take a value: `-cl 5`), negative numbers as values (`--limit -1`), and `--` to make
/// everything after it positional.
struct ArgumentScanner {
    let definitions: [ArgumentDefinition]
    let commandStack: [any ParsableCommand.Type]
    /// Built-in long options (`--help`, `--version`) offered as suggestions for typos.
    let builtInLongNames: [String]

    init(
        definitions: [ArgumentDefinition], commandStack: [any ParsableCommand.Type],
        builtInLongNames: [String]
    ) {
        self.definitions = definitions
        self.commandStack = commandStack
        self.builtInLongNames = builtInLongNames
        var seen: Set<Name> = [.long("help"), .short("h")]
        for name in definitions.flatMap({ $0.names + $0.inversionNames }) {
            precondition(
                seen.insert(name).inserted,
                "'\(name.synopsis)' is declared twice (or clashes with -h/--help) in \(commandStack.last!)"
            )
        }
    }

    /// The definition answering to a long name (without dashes), and whether the name is one
    /// that turns a flag off.
    func definition(forLong name: String) -> (definition: ArgumentDefinition, isInversion: Bool)? {
        for definition in definitions {
            if definition.names.contains(.long(name)) { return (definition, false) }
            if definition.inversionNames.contains(.long(name)) { return (definition, true) }
        }
        return nil
    }

    func definition(forShort character: Character) -> ArgumentDefinition? {
        definitions.first { $0.names.contains(.short(character)) }
    }

    /// Whether `token` would be read as an option of these definitions that takes the next
    /// token as its value; nil when it names no option of these definitions.
    func consumesNextToken(_ token: String) -> Bool? {
        if token.hasPrefix("--") {
            let body = token.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            guard let (definition, _) = definition(forLong: name) else { return nil }
            return definition.takesValue && !body.contains("=")
        }
        let characters = Array(token.dropFirst())
        for (position, character) in characters.enumerated() {
            guard let definition = definition(forShort: character) else { return nil }
            if definition.takesValue { return position == characters.count - 1 }
        }
        return false
    }

    /// Reads `tokens` into the definitions' storage.
    ///
    /// - Throws: ``CommandLineError`` for an unknown option, a missing or invalid value, an
    ///   unexpected or missing argument.
    func scan(_ tokens: [String]) throws(CommandLineError) {
        var positionals: [String] = []
        var index = 0
        var onlyPositionals = false

        func nextValue(for definition: ArgumentDefinition, typed name: Name)
            throws(CommandLineError)
            -> String
        {
            guard index < tokens.count, tokens[index].canBeOptionValue else {
                throw .missingValue(for: definition, typed: name, commandStack: commandStack)
            }
            index += 1
            return tokens[index - 1]
        }

        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if token == "--" && !onlyPositionals {
                onlyPositionals = true
                continue
            }
            if onlyPositionals || !token.isOptionLike {
                positionals.append(token)
                continue
            }

            if token.hasPrefix("--") {
                let body = token.dropFirst(2)
                let nameText = String(body.prefix { $0 != "=" })
                let attached = body.firstIndex(of: "=").map {
                    String(body[body.index(after: $0)...])
                }
                let name = Name.long(nameText)
                guard let (definition, isInversion) = definition(forLong: nameText) else {
                    throw .unknownOption(
                        name.synopsis, suggestion: suggestion(for: name.synopsis),
                        commandStack: commandStack)
                }
                if definition.kind == .flag {
                    if let attached {
                        throw .unexpectedFlagValue(
                            attached, typed: name, commandStack: commandStack)
                    }
                    definition.setFlag(!isInversion)
                    continue
                }
                if let attached {
                    try read(attached, into: definition, typed: name)
                } else {
                    try read(nextValue(for: definition, typed: name), into: definition, typed: name)
                }
                continue
            }

            // A group of short names: flags, possibly ending in an option with its value.
            let characters = Array(token.dropFirst())
            var position = 0
            while position < characters.count {
                let character = characters[position]
                position += 1
                let name = Name.short(character)
                guard let definition = definition(forShort: character) else {
                    throw .unknownOption(name.synopsis, suggestion: nil, commandStack: commandStack)
                }
                if definition.kind == .flag {
                    definition.setFlag(true)
                    continue
                }
                var value: String
                if position < characters.count {
                    value = String(characters[position...])
                    if value.hasPrefix("=") { value.removeFirst() }
                    position = characters.count
                } else {
                    value = try nextValue(for: definition, typed: name)
                }
                try read(value, into: definition, typed: name)
            }
        }

        try assignPositionals(positionals)
        for definition in definitions where !definition.hasValue() {
            throw .missingArgument(definition, commandStack: commandStack)
        }
    }

    private func read(_ value: String, into definition: ArgumentDefinition, typed name: Name?)
        throws(CommandLineError)
    {
        guard definition.update(value) else {
            throw .invalidValue(value, for: definition, typed: name, commandStack: commandStack)
        }
    }

    /// Hands positional values to the positional definitions in declaration order; a repeating
    /// one takes all that are left.
    private func assignPositionals(_ values: [String]) throws(CommandLineError) {
        var remaining = values[...]
        for definition in definitions where definition.kind == .positional {
            if definition.isRepeating {
                while let value = remaining.popFirst() {
                    try read(value, into: definition, typed: nil)
                }
            } else if let value = remaining.popFirst() {
                try read(value, into: definition, typed: nil)
            }
        }
        if !remaining.isEmpty {
            throw .unexpectedArguments(Array(remaining), commandStack: commandStack)
        }
    }

    /// The declared long name closest to a mistyped one.
    private func suggestion(for typed: String) -> String? {
        let candidates =
            definitions.filter { !$0.help.isHidden }
            .flatMap { ($0.names + $0.inversionNames).filter { !$0.isShort }.map(\.synopsis) }
            + builtInLongNames
        return closestMatch(to: typed, among: candidates)
    }
}

extension String {
    /// Whether the parser reads this token as one or more option names rather than a value:
    /// `-` alone (standard input, by convention) and negative numbers are values.
    var isOptionLike: Bool {
        hasPrefix("-") && self != "-" && !isNegativeNumber
    }

    /// Whether this token may be the value of the option before it.
    var canBeOptionValue: Bool {
        !isOptionLike && self != "--"
    }

    /// `-1`, `-0.5`, `-.5`, `-1e3`: a minus sign followed by a number.
    var isNegativeNumber: Bool {
        guard hasPrefix("-"), count > 1 else { return false }
        return Double(dropFirst()) != nil
            && dropFirst().first.map { $0.isNumber || $0 == "." } == true
    }
}
