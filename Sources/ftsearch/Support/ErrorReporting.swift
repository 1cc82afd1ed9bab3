import ArgumentParser
import FTSearchKit
import FTSearchSQLite

/// The one place that turns library errors into a message and a sysexits(3) exit code.
///
/// 64 usage, 65 bad data (input records, damaged or foreign database files), 66 missing input,
/// 69 no terminal for `interactive`, 70 internal, 73 cannot create, 74 database I/O (and
/// changes to a read-only database), 75 another process writes the database (`--no-wait`).
enum ErrorReporting {
    static func report(for error: any Error) -> ErrorReport? {
        switch error {
        case let error as ImportError: importReport(error)
        case let error as DatabaseOpenError: databaseReport(error)
        case let error as InputError: inputReport(error)
        case let error as SQLiteError: sqliteReport(error)
        case let error as TerminalUnavailable:
            ErrorReport(exitCode: ExitCode.unavailable, message: error.description)
        case let error as ReadOnlyDatabaseError:
            ErrorReport(exitCode: ExitCode.ioError, message: error.description)
        case let error as HistoryEntryNotFound:
            ErrorReport(exitCode: ExitCode.dataError, message: error.description)
        case let error as RecordStoreError:
            ErrorReport(exitCode: ExitCode.dataError, message: error.description)
        case let error as ExportError: exportReport(error)
        case let error as DatabaseBusyError:
            ErrorReport(
                exitCode: ExitCode.temporaryFailure,
                message: "\(error), and --no-wait was given; nothing was changed: try again "
                    + "when it has finished, or leave out --no-wait to wait for it")
        default: nil
        }
    }

    private static func importReport(_ error: ImportError) -> ErrorReport {
        switch error {
        case .invalidRecord:
            ErrorReport(
                exitCode: ExitCode.dataError,
                message: "\(error)\nNothing was imported; the database is unchanged.")
        case .unknownKind:
            ErrorReport(
                exitCode: ExitCode.usage,
                message: "\(error); pass --kind people or --kind animals")
        case .unreadableInput(let input):
            inputReport(input)
        }
    }

    private static func exportReport(_ error: ExportError) -> ErrorReport {
        switch error {
        case .oneKindPerFile:
            ErrorReport(
                exitCode: ExitCode.usage,
                message: "\(error); choose --kind people or --kind animals (or --format json)")
        case .duplicateField:
            ErrorReport(exitCode: ExitCode.dataError, message: error.description)
        case .unwritableOutput(let output):
            ErrorReport(
                exitCode: output.kind == .writeFailed ? ExitCode.ioError : ExitCode.cannotCreate,
                message: output.kind == .exists
                    ? "\(error) (overwrite it with --force)" : error.description)
        }
    }

    private static func inputReport(_ error: InputError) -> ErrorReport {
        let code = error.kind == .readFailed ? ExitCode.ioError : ExitCode.noInput
        let name = error.path == "-" ? "standard input" : error.path
        return ErrorReport(exitCode: code, message: "\(name): \(error.reason)")
    }

    private static func databaseReport(_ error: DatabaseOpenError) -> ErrorReport {
        let code: ExitCode =
            switch error {
            case .missing: .noInput
            case .notADatabase, .newerSchema: .dataError
            case .cannotCreate: .cannotCreate
            case .cannotOpen: .ioError
            }
        let advice = if case .missing = error { "; run 'ftsearch import FILE' first" } else { "" }
        return ErrorReport(exitCode: code, message: error.description + advice)
    }

    private static func sqliteReport(_ error: SQLiteError) -> ErrorReport {
        if error.isCorruption {
            return ErrorReport(
                exitCode: ExitCode.dataError,
                message: "the database is damaged: \(error.message) (try 'ftsearch check')")
        }
        if error.code == .busy {
            return ErrorReport(
                exitCode: ExitCode.temporaryFailure,
                message: "another process is using the database (\(error.message)), and "
                    + "--no-wait was given: try again when it has finished")
        }
        if error.isDiskFull {
            return ErrorReport(
                exitCode: ExitCode.ioError,
                message: "database I/O failed: no space left on device (\(error.message)); "
                    + "nothing was changed")
        }
        if error.isIOFailure {
            return ErrorReport(
                exitCode: ExitCode.ioError,
                message: "database I/O failed: \(error.message)")
        }
        return ErrorReport(exitCode: ExitCode.internalError, message: error.description)
    }
}
