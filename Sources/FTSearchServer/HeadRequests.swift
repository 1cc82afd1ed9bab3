import Hummingbird

/// HEAD, answered as GET is but without the body (RFC 9110 §9.3.2): the same status and
/// headers, `Content-Length` included when the GET answer has one.
enum HeadRequests {
    /// The handler of HEAD for a route whose GET handler is `get`.
    static func handler(
        for get: @escaping @Sendable (Request, ServerContext) async throws -> Response
    ) -> @Sendable (Request, ServerContext) async throws -> Response {
        { request, context in
            var response = try await get(request, context)
            // The GET answer's length, and no byte of it (HTTP/1's encoder sends none after
            // the head of an answer to HEAD). A streamed body that is never written ends its
            // producer (an export's pipe closes when its body is released).
            response.body = ResponseBody(contentLength: response.body.contentLength) { writer in
                try await writer.finish(nil)
            }
            return response
        }
    }
}
