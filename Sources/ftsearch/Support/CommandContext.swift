#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a command's `run(in:)` gets from the outside world: its output streams, input, and
/// environment. Passed in rather than global, so tests can run commands in parallel and read
/// what they wrote.
///
/// ```swift
/// func run(in context: CommandContext) throws {
///     context.standardError.print("Delete all history? [y/N]", terminator: " ")
///     guard context.readLine() == "y" else { throw ExitCode(1) }
///     context.standardOutput.print("History cleared.")
/// }
/// ```
public struct CommandContext {
    /// Standard output: buffered, flushed when the tool exits.
    public var standardOutput: OutputWriter
    /// Standard error: for errors, warnings, progress and prompts.
    public var standardError: OutputWriter
    /// Where ``readLine()`` reads from.
    public var standardInput: InputReader
    /// The environment variables.
    public var environment: [String: String]
    /// Whether standard output is a terminal (so colour or tables for people make sense).
    public var isStandardOutputTerminal: Bool
    /// Whether standard error is a terminal (so progress reports make sense).
    public var isStandardErrorTerminal: Bool
    /// Whether standard input is a terminal (so a person can answer a prompt).
    public var isStandardInputTerminal: Bool

    /// A context made of the given parts; ``current()`` and
    /// ``capturing(input:environment:isTerminal:)`` make the usual ones.
    public init(
        standardOutput: OutputWriter, standardError: OutputWriter, standardInput: InputReader,
        environment: [String: String], isStandardOutputTerminal: Bool,
        isStandardErrorTerminal: Bool, isStandardInputTerminal: Bool
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardInput = standardInput
        self.environment = environment
        self.isStandardOutputTerminal = isStandardOutputTerminal
        self.isStandardErrorTerminal = isStandardErrorTerminal
        self.isStandardInputTerminal = isStandardInputTerminal
    }

    /// Reads one line of input without its line ending, for confirmation prompts; nil at the
    /// end of input.
    public func readLine() -> String? {
        standardInput.readLine()
    }

    /// The context of this process: file descriptors 0, 1 and 2 and its environment.
    ///
    /// Standard output is line-buffered on a terminal and fully buffered otherwise; standard
    /// error is not buffered.
    public static func current() -> CommandContext {
        let outputIsTerminal = isatty(STDOUT_FILENO) == 1
        return CommandContext(
            standardOutput: OutputWriter(
                fileDescriptor: STDOUT_FILENO, buffering: outputIsTerminal ? .line : .full),
            standardError: OutputWriter(fileDescriptor: STDERR_FILENO, buffering: .none),
            standardInput: .standardInput(),
            environment: processEnvironment(),
            isStandardOutputTerminal: outputIsTerminal,
            isStandardErrorTerminal: isatty(STDERR_FILENO) == 1,
            isStandardInputTerminal: isatty(STDIN_FILENO) == 1)
    }

    /// A context that captures output in memory and reads `input` lines, for tests.
    ///
    /// ```swift
    /// let context = CommandContext.capturing(input: ["y"])
    /// let code = tool.main(arguments: ["history", "clear"], context: context)
    /// #expect(context.standardOutput.capturedText == "History cleared.\n")
    /// ```
    public static func capturing(
        input: [String] = [], environment: [String: String] = [:], isTerminal: Bool = false
    ) -> CommandContext {
        CommandContext(
            standardOutput: .capturing(), standardError: .capturing(),
            standardInput: .lines(input), environment: environment,
            isStandardOutputTerminal: isTerminal, isStandardErrorTerminal: isTerminal,
            isStandardInputTerminal: isTerminal)
    }

    /// The environment variables of this process.
    static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            // Split at the first "=" byte: comparing bytes needs none of the grapheme
            // breaking that a Character search sets up at start-up.
            let count = strlen(pointer)
            pointer.withMemoryRebound(to: UInt8.self, capacity: count) { start in
                let bytes = UnsafeBufferPointer(start: start, count: count)
                if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                    environment[String(decoding: bytes[..<equals], as: UTF8.self)] = String(
                        decoding: bytes[(equals + 1)...], as: UTF8.self)
                }
            }
            entry += 1
        }
        return environment
    }
}
