/// What help shows for one option, flag or argument.
///
/// Usually written as a string literal: `@Option(help: "How many results to show.")`.
/// Spell it out for a discussion below the row or a different value name:
///
/// ```swift
/// @Option(help: ArgumentHelp("Where the index lives.", valueName: "path"))
/// var db: String?                               // --db <path>
/// ```
public struct ArgumentHelp: ExpressibleByStringInterpolation, Sendable {
    /// The one-line description shown beside the name.
    public var abstract: String
    /// Longer text shown indented below the row.
    public var discussion: String
    /// The placeholder in `--limit <limit>`; derived from the property name when nil.
    public var valueName: String?
    /// Whether the row is left out of help and usage (the option still parses).
    public var isHidden: Bool

    /// Help with an abstract and, optionally, a discussion, a value name, or hidden.
    public init(
        _ abstract: String = "", discussion: String = "", valueName: String? = nil,
        isHidden: Bool = false
    ) {
        self.abstract = abstract
        self.discussion = discussion
        self.valueName = valueName
        self.isHidden = isHidden
    }

    /// Help with only an abstract.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Help with only an abstract, built by interpolation.
    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }

    /// Help for something that parses but is not listed in help or usage.
    public static var hidden: ArgumentHelp { ArgumentHelp(isHidden: true) }
}
