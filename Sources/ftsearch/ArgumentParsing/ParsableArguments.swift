/// A type whose properties are declared with `@Option`, `@Flag`, `@Argument` and
/// `@OptionGroup`, and can be filled from command-line arguments.
///
/// Commands conform through ``ParsableCommand``; a group of shared options conforms directly and
/// is used with `@OptionGroup`.
public protocol ParsableArguments: SendableMetatype {
    /// Makes an instance with every property at its declared default. The compiler writes it
    /// when every stored property is a wrapped one.
    init()

    /// Checks the parsed values together, after parsing and before running.
    ///
    /// - Throws: ``ValidationError`` to report a usage error (exit code 64, with the usage
    ///   line); any other error is reported like an error from `run`.
    mutating func validate() throws
}

extension ParsableArguments {
    /// Accepts every combination of values.
    public mutating func validate() throws {}
}
