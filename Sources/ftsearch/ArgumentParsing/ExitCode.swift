/// An exit code thrown to end the tool silently, as `history clear` does when the user declines.
///
/// ```swift
/// guard answer == "y" else { throw ExitCode(1) }
/// ```
///
/// The codes follow sysexits(3).
public struct ExitCode: Error, RawRepresentable, Hashable, Sendable {
    /// The process exit code.
    public var rawValue: Int32

    /// The exit code `rawValue`.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The exit code `code`.
    public init(_ code: Int32) {
        self.rawValue = code
    }

    /// 0: success.
    public static let success = ExitCode(0)
    /// 1: a general failure.
    public static let failure = ExitCode(1)
    /// 64 (EX_USAGE): the command was used incorrectly.
    public static let usage = ExitCode(64)
    /// 65 (EX_DATAERR): the input data was incorrect.
    public static let dataError = ExitCode(65)
    /// 66 (EX_NOINPUT): an input file did not exist or was not readable.
    public static let noInput = ExitCode(66)
    /// 70 (EX_SOFTWARE): an internal error.
    public static let internalError = ExitCode(70)
    /// 73 (EX_CANTCREAT): an output file could not be created.
    public static let cannotCreate = ExitCode(73)
    /// 74 (EX_IOERR): an error while reading or writing.
    public static let ioError = ExitCode(74)
}

/// An error that knows how the tool should end when it escapes `run`: with which exit code, and
/// which message after `Error: ` on standard error (none when empty).
///
/// Conform the app's own errors to it, or map library errors to an ``ErrorReport`` in the hook
/// given to ``CommandLineTool``.
public protocol ExitCodeProviding: Error {
    /// The process exit code, following sysexits(3).
    var exitCode: Int32 { get }
    /// The text after `Error: `; nothing is printed when empty.
    var message: String { get }
}

/// A message and exit code for an error, as the tool's error hook returns them.
///
/// ```swift
/// CommandLineTool(root: FTSearch.self, version: "0.1.0") { error in
///     switch error {
///     case let error as SQLiteError: ErrorReport(exitCode: 70, message: error.description)
///     default: nil
///     }
/// }
/// ```
public struct ErrorReport: ExitCodeProviding, Equatable {
    /// The process exit code.
    public var exitCode: Int32
    /// The text after `Error: `; nothing is printed when empty.
    public var message: String

    /// A report of `message` with exit code `exitCode`.
    public init(exitCode: Int32, message: String) {
        self.exitCode = exitCode
        self.message = message
    }
}

/// A successful early end: show the current command's help, or print a message.
public struct CleanExit: Error, CustomStringConvertible {
    enum Kind {
        case helpRequest
        case message(String)
    }

    let kind: Kind

    /// Print the help of the command that threw it, on standard output, and exit 0.
    public static func helpRequest() -> CleanExit { CleanExit(kind: .helpRequest) }

    /// Print `text` on standard output and exit 0.
    public static func message(_ text: String) -> CleanExit { CleanExit(kind: .message(text)) }

    /// What the exit does, for debugging.
    public var description: String {
        switch kind {
        case .helpRequest: "help requested"
        case .message(let text): text
        }
    }
}
