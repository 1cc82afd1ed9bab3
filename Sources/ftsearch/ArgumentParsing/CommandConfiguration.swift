/// A command's name, help texts and subcommands.
///
/// ```swift
/// struct History: ParsableCommand {
///     static let configuration = CommandConfiguration(
///         abstract: "Show or change the search history.",
///         subcommands: [List.self, Delete.self, Clear.self],
///         defaultSubcommand: List.self)
/// }
/// ```
public struct CommandConfiguration: Sendable {
    /// The name the user types; by default the type name in kebab case (`HistoryDelete` →
    /// `history-delete`).
    public var commandName: String?
    /// One line for `OVERVIEW:` and the parent's `SUBCOMMANDS:` list.
    public var abstract: String
    /// Longer text shown after the abstract in the command's own help.
    public var discussion: String
    /// The commands one level below this one, in the order help lists them.
    public var subcommands: [any ParsableCommand.Type]
    /// The subcommand run when none is named: `ftsearch history` is `ftsearch history list`.
    public var defaultSubcommand: (any ParsableCommand.Type)?

    /// A configuration; every part is optional.
    ///
    /// - Precondition: `defaultSubcommand`, when given, is one of `subcommands`.
    public init(
        commandName: String? = nil,
        abstract: String = "",
        discussion: String = "",
        subcommands: [any ParsableCommand.Type] = [],
        defaultSubcommand: (any ParsableCommand.Type)? = nil
    ) {
        precondition(
            defaultSubcommand.map { d in subcommands.contains { $0 == d } } ?? true,
            "the default subcommand must be one of the subcommands")
        self.commandName = commandName
        self.abstract = abstract
        self.discussion = discussion
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
    }
}
