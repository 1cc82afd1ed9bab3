import FTSearchKit
import Hummingbird

/// JSON answers, written by the library's own JSON writer so that the server and
/// `ftsearch ... --format json` print the same objects.
enum JSONResponse {
    static func make(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        var text = value.jsonText
        text += "\n"
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// `{"key": value, ...}` from pairs.
    static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(members.map { JSONMember(key: $0.key, value: $0.value) })
    }
}

extension JSONValue {
    /// A JSON number for an integer.
    static func integer(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    /// A JSON string, or null.
    static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
}
