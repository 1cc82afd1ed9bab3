import ArgumentParser

/// A command that reads and writes only through the ``CommandContext`` it is given, never
/// through globals, so tests can run it in-process, in parallel, and read what it wrote.
///
/// ```swift
/// struct StatsCommand: ContextualCommand {
///     func run(in context: CommandContext) throws {
///         context.standardOutput.print("people  18")
///     }
/// }
/// ```
protocol ContextualCommand: ParsableCommand {
    /// Does the command's work; ``CommandRunner`` reports what it throws.
    func run(in context: CommandContext) throws
}
