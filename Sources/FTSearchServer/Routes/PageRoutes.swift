import Hummingbird

/// `GET /`, the page's other files (its style and scripts) and `GET /openapi.json` (the OpenAPI 3.1 document of the
/// native API), from the bytes embedded at build time. Only these paths exist: nothing is
/// read from the file system, so no path reaches a file.
extension Routes {
    func addPageRoutes(to routes: RouteTable) {
        let files: [(String, [UInt8], String)] = [
            ("/", PackageResources.index_html, "text/html; charset=utf-8"),
            ("/app.css", PackageResources.app_css, "text/css; charset=utf-8"),
            ("/app.js", PackageResources.app_js, "text/javascript; charset=utf-8"),
            ("/facets.js", PackageResources.facets_js, "text/javascript; charset=utf-8"),
            ("/record.js", PackageResources.record_js, "text/javascript; charset=utf-8"),
            ("/openapi.json", PackageResources.openapi_json, "application/json; charset=utf-8"),
        ]
        for (path, bytes, contentType) in files {
            let buffer = ByteBuffer(bytes: bytes)
            routes.on(path, .get) { _, _ in
                Response(
                    status: .ok,
                    headers: [
                        .contentType: contentType, .cacheControl: "no-cache",
                        .contentSecurityPolicy:
                            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
                        .xContentTypeOptions: "nosniff",
                    ],
                    body: ResponseBody(byteBuffer: buffer))
            }
        }
    }
}
