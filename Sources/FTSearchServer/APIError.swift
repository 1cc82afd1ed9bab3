import FTSearchKit
import Hummingbird
import FTSearchSQLite

/// An answer that is not a success: one status, and one JSON body,
/// `{"error":{"code":"not_found","message":"no person with id 12"}}`, for every error the
/// server gives.
struct APIError: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    /// A stable, machine-readable name: `bad_request`, `not_found`, `invalid_record`...
    var code: String
    /// A sentence for people.
    var message: String
    /// More members of the error object (`line` for an import problem).
    var details: [JSONMember] = []
    /// More response headers (`Allow` for 405, `WWW-Authenticate` for 401).
    var headers: HTTPFields = [:]

    init(
        _ status: HTTPResponse.Status, code: String, _ message: String,
        details: [JSONMember] = [], headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers
    }

    static func badRequest(_ message: String) -> APIError {
        APIError(.badRequest, code: "bad_request", message)
    }

    static func notFound(_ message: String) -> APIError {
        APIError(.notFound, code: "not_found", message)
    }

    /// 507: the disk (or a quota) had no room; nothing of the change was kept.
    static let diskFull = APIError(
        HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), code: "disk_full",
        "the disk is full: the change was not made; free some space and try again")

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let error = JSONValue.object(
            [
                JSONMember(key: "code", value: .string(code)),
                JSONMember(key: "message", value: .string(message)),
            ] + details)
        var response = JSONResponse.make(
            .object([JSONMember(key: "error", value: error)]), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}

extension APIError {
    /// The one place where errors become answers: library errors by what they mean, HTTP
    /// errors of Hummingbird by their status, anything else as 500 without its details (which
    /// go to the log).
    init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as SearchRequestError:
            self = .badRequest(error.description)
        case let error as RecordStoreError:
            switch error {
            case .invalidRecord:
                self.init(.unprocessableContent, code: "invalid_record", error.description)
            case .idInUse:
                self.init(.conflict, code: "id_in_use", error.description)
            case .unknownIDs:
                self = .notFound(error.description)
            }
        case let error as HistoryEntryNotFound:
            self = .notFound(error.description)
        case let error as ReadOnlyDatabaseError:
            self.init(.serviceUnavailable, code: "read_only", error.description)
        case let error as ImportError:
            self.init(importError: error)
        case ExportError.oneKindPerFile(let format):
            self = .badRequest(
                "\(format.rawValue) holds one kind of record: give kind=people or kind=animals, "
                    + "or format=json")
        case let error as ExportError:
            self.init(.internalServerError, code: "internal", error.description)
        case let error as SQLiteError where error.isCorruption:
            self.init(
                .internalServerError, code: "database_damaged",
                "the database is damaged: \(error.message)")
        case let error as SQLiteError where error.isDiskFull:
            self = .diskFull
        case let error as SpoolError where error.isDiskFull:
            self = .diskFull
        case let error as SQLiteError where error.isBusy:
            self.init(.serviceUnavailable, code: "busy", "the database is busy; try again")
        case let error as HTTPError:
            self.init(httpError: error)
        case is ClientGoneError:
            self.init(
                HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request"),
                code: "client_gone", "the client closed its connection before the answer")
        case is CancellationError:
            self.init(.serviceUnavailable, code: "cancelled", "the request was cancelled")
        default:
            self.init(.internalServerError, code: "internal", "the server failed")
        }
    }

    private init(importError error: ImportError) {
        switch error {
        case .invalidRecord(let problem):
            var details = [JSONMember(key: "line", value: .number(String(problem.line)))]
            if let column = problem.column {
                details.append(JSONMember(key: "column", value: .number(String(column))))
            }
            self.init(
                .unprocessableContent, code: "invalid_record",
                "line \(problem.line): \(problem.reason); nothing was imported",
                details: details)
        case .unknownKind:
            self.init(
                .unprocessableContent, code: "unknown_kind",
                "cannot tell whether the records are people or animals (no first_name, "
                    + "last_name or name field); pass ?kind=people or ?kind=animals")
        case .unreadableInput(let input):
            self.init(.badRequest, code: "bad_request", input.reason)
        }
    }

    private init(httpError error: HTTPError) {
        let code: String =
            switch error.status {
            case .notFound: "not_found"
            case .contentTooLarge: "too_large"
            case .methodNotAllowed: "method_not_allowed"
            case .requestTimeout: "timeout"
            case .unsupportedMediaType: "unsupported_media_type"
            default: error.status.code < 500 ? "bad_request" : "internal"
            }
        let message =
            switch error.status {
            case .notFound: "no such route"
            case .contentTooLarge: "the request body is too large"
            default: error.body ?? error.status.reasonPhrase.lowercased()
            }
        self.init(error.status, code: code, message, headers: error.headers)
    }
}

extension SQLiteError {
    /// SQLITE_BUSY or SQLITE_LOCKED: another process holds the database.
    fileprivate var isBusy: Bool {
        code == .busy || code == .locked
    }
}
