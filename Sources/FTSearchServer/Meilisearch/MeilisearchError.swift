import FTSearchKit
import Hummingbird
import NIOHTTPCompression

/// An error of the Meilisearch-compatible API, in Meilisearch's shape:
/// `{"message":"Index `dogs` not found.","code":"index_not_found","type":"invalid_request",
/// "link":"https://docs.meilisearch.com/errors#index_not_found"}`, with Meilisearch's codes, so
/// that its SDKs raise their usual exceptions.
struct MeilisearchError: HTTPResponseError, Sendable {
    enum Kind: String, Sendable {
        case invalidRequest = "invalid_request"
        case auth
        case system
        case `internal`
    }

    var status: HTTPResponse.Status
    var code: String
    var message: String
    var type: Kind = .invalidRequest
    var headers: HTTPFields = [:]

    init(
        _ status: HTTPResponse.Status, code: String, _ message: String,
        type: Kind = .invalidRequest
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.type = type
    }

    /// 400 with `code`.
    static func invalid(_ code: String, _ message: String) -> MeilisearchError {
        MeilisearchError(.badRequest, code: code, message)
    }

    static func indexNotFound(_ uid: String) -> MeilisearchError {
        MeilisearchError(
            .notFound, code: "index_not_found",
            "Index `\(uid)` not found. This server has two indexes, `people` and `animals`.")
    }

    /// An error object inside a task or a multi-search answer.
    var jsonObject: JSONValue {
        JSONResponse.object([
            "message": .string(message),
            "code": .string(code),
            "type": .string(type.rawValue),
            "link": .string("https://docs.meilisearch.com/errors#\(code)"),
        ])
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONResponse.make(jsonObject, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}

extension MeilisearchError {
    /// Any error a Meilisearch route meets, by what it means; the native API's errors (a
    /// body too large, a timeout, a busy or read-only database) keep their status and message.
    init(_ error: any Error) {
        switch error {
        case let error as MeilisearchError:
            self = error
        case let error as SearchRequestError:
            self = .invalid("invalid_search_attributes_to_search_on", error.description)
        case let error as RecordStoreError:
            switch error {
            case .invalidRecord: self = .invalid("invalid_document_fields", error.description)
            case .idInUse: self = .invalid("invalid_document_id", error.description)
            case .unknownIDs:
                self.init(.notFound, code: "document_not_found", error.description)
            }
        case let error as ImportError:
            self = .invalid("malformed_payload", error.description)
        case let error as NIOHTTPDecompression.DecompressionError:
            self =
                error == .limit
                ? MeilisearchError(
                    .contentTooLarge, code: "payload_too_large",
                    "The body decompresses to more than 100 times its size.")
                : .invalid(
                    "malformed_payload",
                    "The body is not valid data of its Content-Encoding (gzip or deflate).")
        case is NIOHTTPDecompression.ExtraDecompressionError:
            self = .invalid(
                "malformed_payload",
                "The body is not valid data of its Content-Encoding (gzip or deflate).")
        case let error as HTTPError where error.status == .notFound:
            self.init(
                .notFound, code: "not_found",
                "No such route. The Meilisearch-compatible routes are /health, /version, /stats, "
                    + "/indexes, /indexes/{uid}, /indexes/{uid}/stats, /indexes/{uid}/search, "
                    + "/indexes/{uid}/documents, /indexes/{uid}/settings, "
                    + "/indexes/{uid}/facet-search, /multi-search and /tasks.")
        default:
            let native = APIError(error)
            let code =
                switch native.code {
                case "too_large": "payload_too_large"
                case "read_only": "database_read_only"
                case "internal", "database_damaged": "internal"
                case "unsupported_media_type": "invalid_content_type"
                default: native.code
                }
            self.init(
                native.status, code: code, native.message,
                type: native.status.code >= 500 ? .internal : .invalidRequest)
            headers = native.headers
        }
    }
}
