import ArgumentParser

/// `--color auto|always|never`, as ripgrep and git spell it.
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, always, never

    /// Whether to colour standard output: `auto` colours a terminal unless `NO_COLOR` is set.
    func isEnabled(in context: CommandContext) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto:
            context.isStandardOutputTerminal && (context.environment["NO_COLOR"] ?? "").isEmpty
        }
    }
}
