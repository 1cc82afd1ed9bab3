import FTSearchKit
import Hummingbird

/// `POST /api/import` and `GET /api/export`: the library's importer and exporter, streamed.
extension Routes {
    func addTransferRoutes(to routes: RouteTable) {
        routes.on("/api/import", .post) { request, _ in try await importRecords(request) }
        routes.on("/api/export", .get) { request, context in
            try await export(request, client: context.clientAddress)
        }
    }

    /// The body (JSON, NDJSON, CSV or TSV: `?format=`, else the content type, else, for
    /// `application/octet-stream`, sniffed as `ftsearch import` sniffs; a form's content type
    /// never gets here, see ``BrowserGuardMiddleware``) goes to the importer as it arrives, in one transaction: an
    /// invalid record is a 422 naming its line, and nothing is imported. `?kind=`,
    /// `?replace=true` and `?skip_invalid=true` are `import`'s options.
    private func importRecords(_ request: Request) async throws -> Response {
        let parameters = try QueryParameters(
            request, allowing: ["kind", "format", "replace", "skip_invalid"],
            maximumSize: configuration.maximumQuerySize)
        let kind: Kind? = try parameters["kind"].map { name throws(APIError) in
            guard let kind = Kind(rawValue: name) else {
                throw .badRequest("kind must be people or animals, not '\(name)'")
            }
            return kind
        }
        let contentType = request.headers[.contentType]
        let typed = Self.format(ofContentType: contentType)
        guard typed != nil || RequestBodies.mediaType(contentType) == "application/octet-stream"
        else {
            throw APIError(
                .unsupportedMediaType, code: "unsupported_media_type",
                "send the records as application/json, application/x-ndjson, text/csv, "
                    + "text/tab-separated-values or application/octet-stream (then ?format= "
                    + "or the first bytes tell the format)")
        }
        let format =
            try parameters["format"].map { name throws(APIError) in
                guard let format = InputFormat(rawValue: name) else {
                    throw .badRequest("format must be json, ndjson, csv or tsv, not '\(name)'")
                }
                return format
            } ?? typed
        let options = ImportOptions(
            kind: kind, replace: try Self.flag(parameters, "replace"),
            skipInvalid: try Self.flag(parameters, "skip_invalid"),
            maximumFieldSize: configuration.maximumFieldSize)
        let (summary, skipped) = try await bodies.spooled(
            request.body, limit: configuration.maximumImportSize, to: pool
        ) { index, body in
            let (_, reader) = try InputFormat.makeReader(for: body, format: format)
            var skipped: [RecordProblem] = []
            let summary = try index.importRecords(
                from: [ImportSource(name: "body", reader: reader)], options: options,
                onSkip: { if skipped.count < 100 { skipped.append($0) } })
            return (summary, skipped)
        }
        func counts(_ counts: [Kind: Int]) -> JSONValue {
            .object(
                Kind.allCases.map { JSONMember(key: $0.rawValue, value: .integer(counts[$0] ?? 0)) }
            )
        }
        return JSONResponse.make(
            JSONResponse.object([
                "inserted": counts(summary.inserted),
                "updated": counts(summary.updated),
                "skipped": .integer(summary.skipped),
                "problems": .array(
                    skipped.map { problem in
                        JSONResponse.object([
                            "line": .integer(problem.line), "message": .string(problem.reason),
                        ])
                    }),
            ]))
    }

    private static func flag(_ parameters: QueryParameters, _ name: String) throws(APIError) -> Bool
    {
        switch parameters[name] {
        case nil, "false", "0": return false
        case "true", "1", "": return true
        case let other?: throw .badRequest("\(name) must be true or false, not '\(other)'")
        }
    }

    static func format(ofContentType contentType: String?) -> InputFormat? {
        switch RequestBodies.mediaType(contentType) {
        case "application/json": .json
        case "application/x-ndjson", "application/ndjson", "application/jsonl": .ndjson
        case "text/csv": .csv
        case "text/tab-separated-values": .tsv
        default: nil
        }
    }

    /// `?kind=people|animals|all&format=json|ndjson|csv|tsv`: what `ftsearch export` writes,
    /// sent as it is written.
    /// Exports run on their own connections (``ExportLane``), not the searches'.
    private func export(_ request: Request, client: String?) async throws -> Response {
        let parameters = try QueryParameters(
            request, allowing: ["kind", "format"], maximumSize: configuration.maximumQuerySize)
        let kinds = try parameters.kinds("kind", default: .all)
        let format = try parameters.choice("format", default: InputFormat.json)
        let lane = exports
        let place = try lane.enter(client: client)
        let pipe = ExportPipe(receiverTimeout: configuration.exportWriteTimeout)
        Task {
            defer { lane.release(place) }
            do {
                try await lane.read { index in
                    _ = try index.export(kinds, as: format, to: pipe)
                }
                pipe.finish()
            } catch {
                pipe.finish(failure: error)
            }
        }
        // An export that fails before its first byte (CSV of both kinds) is an error answer.
        let first: ByteBuffer?
        do {
            first = try await pipe.next()
        } catch {
            pipe.close()
            throw error
        }
        let contentType =
            switch format {
            case .json: "application/json; charset=utf-8"
            case .ndjson: "application/x-ndjson; charset=utf-8"
            case .csv: "text/csv; charset=utf-8"
            case .tsv: "text/tab-separated-values; charset=utf-8"
            }
        let holder = ExportPipeHolder(pipe)
        let body = ResponseBody { writer in
            let pipe = holder.pipe
            do {
                if let first { try await writer.write(first) }
                while let chunk = try await pipe.next() { try await writer.write(chunk) }
                try await writer.finish(nil)
            } catch {
                pipe.close()
                throw error
            }
        }
        return Response(status: .ok, headers: [.contentType: contentType], body: body)
    }
}
