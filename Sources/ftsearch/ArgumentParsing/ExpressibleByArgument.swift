/// A type whose values can be read from one command-line argument, as `--limit 20` reads an `Int`.
///
/// Enumerations with `String` raw values get everything for free, including the list of
/// accepted values that help and error messages show:
///
/// ```swift
/// enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
///     case table, json, tsv
/// }
/// ```
public protocol ExpressibleByArgument {
    /// Reads a value from the text of one argument, or returns nil when the text is not valid.
    init?(argument: String)

    /// The text help shows after `default:` when this value is an option's default.
    var defaultValueDescription: String { get }

    /// Every accepted value, for `(values: ...)` in help and `Please provide one of ...` in
    /// errors; empty when any text of the right shape is accepted.
    static var allValueStrings: [String] { get }
}

extension ExpressibleByArgument {
    /// The value as `String(describing:)` prints it.
    public var defaultValueDescription: String { String(describing: self) }
    /// None: any text the type can read is accepted.
    public static var allValueStrings: [String] { [] }
}

extension ExpressibleByArgument where Self: LosslessStringConvertible {
    /// Reads the value with the type's `init?(_ description:)`.
    public init?(argument: String) {
        self.init(argument)
    }
}

extension ExpressibleByArgument where Self: RawRepresentable, RawValue: ExpressibleByArgument {
    /// Reads the raw value, then the case that has it.
    public init?(argument: String) {
        guard let rawValue = RawValue(argument: argument) else { return nil }
        self.init(rawValue: rawValue)
    }

    /// The raw value, as typed on the command line.
    public var defaultValueDescription: String { rawValue.defaultValueDescription }
}

extension ExpressibleByArgument
where Self: CaseIterable, Self: RawRepresentable, RawValue == String {
    /// The raw values of all cases, in declaration order.
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension String: ExpressibleByArgument {}
extension Int: ExpressibleByArgument {}
extension Int32: ExpressibleByArgument {}
extension Int64: ExpressibleByArgument {}
extension UInt: ExpressibleByArgument {}
extension UInt64: ExpressibleByArgument {}
extension Double: ExpressibleByArgument {}
extension Float: ExpressibleByArgument {}
extension Bool: ExpressibleByArgument {
    /// `true` and `false`.
    public static var allValueStrings: [String] { ["true", "false"] }
}
