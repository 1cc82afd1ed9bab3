/// A usage error found by a command's `validate()`, reported like a parsing error: the message,
/// the usage line, and exit code 64.
///
/// ```swift
/// guard limit >= 0 else { throw ValidationError("--limit must be at least 0") }
/// ```
public struct ValidationError: Error, CustomStringConvertible {
    /// The text after `Error: `.
    public var message: String

    /// A validation error that prints `Error: <message>`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
