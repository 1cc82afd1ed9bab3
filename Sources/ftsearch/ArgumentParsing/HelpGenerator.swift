/// Writes a command's help and usage line from its declarations, in swift-argument-parser's
/// layout:
///
/// ```text
/// OVERVIEW: Search people and animals.
///
/// USAGE: ftsearch query [<text>] [--limit <limit>]
///
/// ARGUMENTS:
///   <text>                  The text to search for.
///
/// OPTIONS:
///   -l, --limit <limit>     How many results to show. (default: 20)
///   -h, --help              Show help information.
///
/// ```
struct HelpGenerator {
    /// Where the description column starts in help rows.
    static let labelColumnWidth = 26
    /// The indentation of help rows.
    static let rowIndent = 2

    let commandStack: [any ParsableCommand.Type]
    /// The tool's version; `--version` is listed in the root command's help when there is one.
    let version: String?
    /// The command's visible arguments, in declaration order.
    let definitions: [ArgumentDefinition]

    init(commandStack: [any ParsableCommand.Type], version: String?) {
        precondition(!commandStack.isEmpty, "help needs a command")
        self.commandStack = commandStack
        self.version = version
        self.definitions = commandStack.last!.init().argumentDefinitions().filter {
            !$0.help.isHidden
        }
    }

    var command: any ParsableCommand.Type { commandStack.last! }

    /// `ftsearch history delete`: the names typed to reach the command.
    var commandPath: String {
        commandStack.map { $0.commandName }.joined(separator: " ")
    }

    // MARK: Usage

    /// The parts of the usage line after the command path.
    var usageItems: [String] {
        var items = definitions.map(\.usageSynopsis)
        if items.count > 12 {
            // Too many to list: keep what must or may be typed positionally.
            let kept = definitions.filter { $0.kind == .positional || !$0.isOptional }
                .map(\.usageSynopsis)
            items = kept.isEmpty || kept.count > 12 ? ["<options>"] : ["[<options>]"] + kept
        }
        if !command.configuration.subcommands.isEmpty {
            items.append("<subcommand>")
        }
        return items
    }

    /// The usage line after `label` (`USAGE: ` in help, `Usage: ` in errors), wrapped at 80
    /// columns with continuation lines aligned after the command path.
    func usage(label: String) -> String {
        let head = label + commandPath
        var continuationIndent = head.count + 1
        if continuationIndent > helpScreenWidth / 2 { continuationIndent = label.count }
        let padding = String(repeating: " ", count: continuationIndent)

        var lines: [String] = []
        var line = head
        var lineHasItem = false
        for item in usageItems {
            if lineHasItem && line.count + 1 + item.count > helpScreenWidth {
                lines.append(line)
                line = padding + item
            } else {
                line += " " + item
            }
            lineHasItem = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// What follows an error message: the usage line and where to find more.
    var usageForErrors: String {
        usage(label: "Usage: ") + "\n  See '\(commandPath) --help' for more information."
    }

    // MARK: Help

    /// The complete help text, ending with a newline.
    func rendered() -> String {
        var text = ""
        let configuration = command.configuration
        var overview = configuration.abstract
        if !configuration.discussion.isEmpty {
            if !overview.isEmpty { overview += "\n" }
            overview += "\n" + configuration.discussion
        }
        if !overview.isEmpty {
            text += ("OVERVIEW: " + overview).wrapped(to: helpScreenWidth) + "\n\n"
        }
        text += usage(label: "USAGE: ") + "\n\n"

        var arguments: [String] = []
        var options: [String] = []
        for definition in definitions {
            let row = Self.row(
                label: definition.helpLabel, abstract: definition.helpDescription,
                discussion: definition.help.discussion)
            if definition.kind == .positional {
                arguments.append(row)
            } else {
                options.append(row)
            }
        }
        if version != nil && commandStack.count == 1 {
            options.append(Self.row(label: "--version", abstract: "Show the version."))
        }
        options.append(Self.row(label: "-h, --help", abstract: "Show help information."))

        let subcommands = configuration.subcommands.map { subcommand in
            var label = subcommand.commandName
            if let defaultSubcommand = configuration.defaultSubcommand,
                defaultSubcommand == subcommand
            {
                label += " (default)"
            }
            return Self.row(label: label, abstract: subcommand.configuration.abstract)
        }

        var sections: [String] = []
        if !arguments.isEmpty { sections.append("ARGUMENTS:\n" + arguments.joined()) }
        sections.append("OPTIONS:\n" + options.joined())
        if !subcommands.isEmpty { sections.append("SUBCOMMANDS:\n" + subcommands.joined()) }
        text += sections.joined(separator: "\n")

        if subcommands.isEmpty {
            text += "\n"
        } else {
            var names = commandStack.map { $0.commandName }
            names.insert("help", at: 1)
            text += "\n  See '\(names.joined(separator: " ")) <subcommand>' for detailed help.\n"
        }
        return text
    }

    /// One help row: the label indented by 2, the abstract from column 26 (on the next line
    /// when the label reaches it), wrapped at 80 columns; a discussion below, indented by 8.
    static func row(label: String, abstract: String, discussion: String = "") -> String {
        let indentedLabel = String(repeating: " ", count: rowIndent) + label
        var row = indentedLabel
        if !abstract.isEmpty {
            let wrapped = abstract.wrapped(to: helpScreenWidth, indent: labelColumnWidth)
            if indentedLabel.count < labelColumnWidth {
                row += String(wrapped.dropFirst(indentedLabel.count))
            } else {
                row += "\n" + wrapped
            }
        }
        row += "\n"
        if !discussion.isEmpty {
            row += discussion.wrapped(to: helpScreenWidth, indent: rowIndent * 4) + "\n"
        }
        return row
    }
}
