import ArgumentParser

/// The exit codes of sysexits(3) that ftsearch uses beyond swift-argument-parser's own
/// (`success`, `failure` and `validationFailure`, which is 64, EX_USAGE).
///
/// ```swift
/// guard problems.isEmpty else { throw ExitCode.dataError }
/// ```
extension ExitCode {
    /// 64 (EX_USAGE): the command was used incorrectly.
    static let usage = ExitCode.validationFailure
    /// 65 (EX_DATAERR): the input data was incorrect.
    static let dataError = ExitCode(65)
    /// 66 (EX_NOINPUT): an input file did not exist or was not readable.
    static let noInput = ExitCode(66)
    /// 69 (EX_UNAVAILABLE): a service the command needs is missing: `interactive`'s terminal.
    static let unavailable = ExitCode(69)
    /// 70 (EX_SOFTWARE): an internal error.
    static let internalError = ExitCode(70)
    /// 73 (EX_CANTCREAT): an output file could not be created.
    static let cannotCreate = ExitCode(73)
    /// 74 (EX_IOERR): an error while reading or writing.
    static let ioError = ExitCode(74)
    /// 75 (EX_TEMPFAIL): a temporary failure: another process was writing the database and
    /// `--no-wait` was given; the same command later will work.
    static let temporaryFailure = ExitCode(75)
}

/// How the tool should end when an error escapes a command: with which exit code, and which
/// message after `Error: ` on standard error (none when empty). ``ErrorReporting`` makes one
/// for each library error.
struct ErrorReport: Error, Equatable {
    /// The process exit code, following sysexits(3).
    var exitCode: ExitCode
    /// The text after `Error: `; nothing is printed when empty.
    var message: String
}
