import FTSearchKit
import Hummingbird
import Synchronization
import Logging

/// The documents of an index: read them (`GET .../documents/{id}`, `GET .../documents`,
/// `POST .../documents/fetch`), and write them as tasks (`POST` adds or replaces, `PUT` adds
/// or updates, with a JSON array, NDJSON or CSV body; deletions by id, by batch, or all).
///
/// A document is a record as `ftsearch export --format ndjson` writes it; its `id` (the
/// primary key) is a positive integer, given as a number or a string of digits. Each write is
/// one transaction of the library's importer or store, applied before the 202 answer.
extension MeilisearchRoutes {
    func addDocumentRoutes(_ on: AddRoute) {
        on("/indexes/:uid/documents/:id", .get) { request, context in
            let kind = try Self.kind(context)
            let id = try Self.documentID(.string(context.parameters.get("id") ?? ""))
            let parameters = try QueryParameters(
                request, allowing: ["fields", "retrieveVectors"],
                maximumSize: configuration.maximumQuerySize)
            let fields = parameters["fields"].map(Routes.list)
            let record = try await pool.read { try Self.record(of: kind, id: id, in: $0) }
            guard let record else {
                throw MeilisearchError(
                    .notFound, code: "document_not_found", "Document `\(id)` not found.")
            }
            return JSONResponse.make(.object(Self.document(record, fields: fields)))
        }
        on("/indexes/:uid/documents", .get) { request, context in
            let kind = try Self.kind(context)
            let parameters = try QueryParameters(
                request,
                allowing: [
                    "offset", "limit", "fields", "retrieveVectors", "ids", "filter", "sort",
                ],
                maximumSize: configuration.maximumQuerySize)
            var ids: [Int64]?
            if let text = parameters["ids"] {
                ids = []
                for item in Routes.list(text) {
                    ids?.append(try Self.documentID(.string(item), code: "invalid_document_ids"))
                }
            }
            return JSONResponse.make(
                try await documents(
                    of: kind,
                    offset: try parameters.integer("offset", default: 0, in: 0...Int(Int32.max)),
                    limit: try parameters.integer("limit", default: 20, in: 0...Int(Int32.max)),
                    fields: parameters["fields"].map(Routes.list), ids: ids,
                    filter: parameters["filter"].map(JSONValue.string) ?? .null,
                    sort: parameters["sort"].map { .array(Routes.list($0).map(JSONValue.string)) }
                        ?? .null))
        }
        on("/indexes/:uid/documents/fetch", .post) { request, context in
            let kind = try Self.kind(context)
            var offset = 0
            var limit = 20
            var fields: [String]?
            var ids: [Int64]?
            var filter = JSONValue.null
            var sort = JSONValue.null
            for member in try await bodies.jsonObject(request) {
                let code = "invalid_document_" + MeilisearchSearchQuery.snakeCase(member.key)
                switch member.key {
                case "offset":
                    offset = try MeilisearchSearchQuery.integer(
                        member.value, code: code, name: member.key, in: 0...Int(Int32.max))
                case "limit":
                    limit = try MeilisearchSearchQuery.integer(
                        member.value, code: code, name: member.key, in: 0...Int(Int32.max))
                case "fields":
                    fields = try MeilisearchSearchQuery.strings(
                        member.value, code: code, name: member.key)
                case "ids":
                    guard case .array(let elements) = member.value else {
                        guard case .null = member.value else {
                            throw MeilisearchError.invalid(
                                code, "Invalid value type at `.ids`: expected an array.")
                        }
                        continue
                    }
                    ids = []
                    for element in elements {
                        ids?.append(try Self.documentID(element, code: code))
                    }
                case "filter": filter = member.value
                case "sort": sort = member.value
                case "retrieveVectors":
                    guard MeilisearchSearchQuery.isEmpty(member.value) else {
                        throw MeilisearchError.invalid(
                            code, "ftsearch keeps no vectors: `retrieveVectors` must be false.")
                    }
                default:
                    throw MeilisearchError.invalid(
                        "bad_request",
                        "Unknown field `\(member.key)`: expected one of offset, limit, fields, "
                            + "ids, filter, sort.")
                }
            }
            return JSONResponse.make(
                try await documents(
                    of: kind, offset: offset, limit: limit, fields: fields, ids: ids,
                    filter: filter, sort: sort))
        }
        on("/indexes/:uid/documents", .post) { request, context in
            try await write(request, into: try Self.kind(context), updating: false)
        }
        on("/indexes/:uid/documents", .put) { request, context in
            try await write(request, into: try Self.kind(context), updating: true)
        }
        on("/indexes/:uid/documents/:id", .delete) { request, context in
            let kind = try Self.kind(context)
            let metadata = try customMetadata(of: request)
            let id = try Self.documentID(.string(context.parameters.get("id") ?? ""))
            return try await delete(ids: [id], from: kind, customMetadata: metadata)
        }
        on("/indexes/:uid/documents/delete-batch", .post) { request, context in
            let kind = try Self.kind(context)
            let metadata = try customMetadata(of: request)
            let bytes = try await bodies.collect(request)
            guard RequestBodies.isJSON(request.headers[.contentType]) else {
                throw MeilisearchError(
                    .unsupportedMediaType, code: "invalid_content_type",
                    "The Content-Type must be application/json.")
            }
            guard let text = String(validating: bytes, as: UTF8.self),
                case .array(let elements)? = JSONValue(parsing: text)
            else {
                throw MeilisearchError.invalid(
                    "malformed_payload", "The body must be a JSON array of document ids.")
            }
            var ids: [Int64] = []
            for element in elements { ids.append(try Self.documentID(element)) }
            return try await delete(ids: ids, from: kind, customMetadata: metadata)
        }
        on("/indexes/:uid/documents/delete", .post) { request, context in
            let kind = try Self.kind(context)
            let metadata = try customMetadata(of: request)
            return try await deleteDocuments(request, from: kind, customMetadata: metadata)
        }
        on("/indexes/:uid/documents", .delete) { request, context in
            let kind = try Self.kind(context)
            return try await delete(
                ids: nil, from: kind, customMetadata: try customMetadata(of: request))
        }
    }

    /// `{"id":"2",...}` with only `fields` (all when nil or `*`).
    static func document(_ record: AnyRecord, fields: [String]?) -> [JSONMember] {
        let fields = fields.flatMap { $0.contains("*") ? nil : Set($0) }
        return record.documentMembers.filter { fields?.contains($0.key) ?? true }
    }

    /// A document id: a positive integer, or a string of its digits.
    static func documentID(_ value: JSONValue, code: String = "invalid_document_id")
        throws(MeilisearchError) -> Int64
    {
        let text = value.scalarText ?? value.jsonText
        if case .bool = value {
        } else if let id = Int64(text), id > 0 {
            return id
        }
        throw .invalid(
            code,
            "Document identifier `\(text)` is invalid: ftsearch's ids are positive integers.")
    }

    /// The `customMetadata` of a deletion's query string, the only parameter it takes.
    private func customMetadata(of request: Request) throws -> String? {
        try QueryParameters(
            request, allowing: ["customMetadata"], maximumSize: configuration.maximumQuerySize
        )["customMetadata"]
    }

    /// The documents from `offset`, at most `limit`, with only `fields`; by id, or only those
    /// of `ids` (in the order of their ids, ids without a document left out), or those that
    /// pass `filter` in `sort`'s order.
    private func documents(
        of kind: Kind, offset: Int, limit: Int, fields: [String]?, ids: [Int64]? = nil,
        filter: JSONValue = .null, sort: JSONValue = .null
    ) async throws -> JSONValue {
        if !MeilisearchSearchQuery.isEmpty(filter) || !MeilisearchSearchQuery.isEmpty(sort) {
            guard ids == nil else {
                throw MeilisearchError.invalid(
                    "invalid_document_filter",
                    "Give `ids` or `filter` and `sort`: ftsearch does not combine them.")
            }
            return try await filteredDocuments(
                of: kind, offset: offset, limit: limit, fields: fields, filter: filter, sort: sort)
        }
        let budget = answerBudget()
        let (documents, total) = try await pool.read { index in
            if let ids {
                let found = try Set(ids).sorted().compactMap {
                    try Self.record(of: kind, id: $0, in: index)
                }
                var documents: [JSONValue] = []
                for record in found.dropFirst(offset).prefix(limit) {
                    let document = JSONValue.object(Self.document(record, fields: fields))
                    try budget.charge(document)
                    documents.append(document)
                }
                return (documents, found.count)
            }
            // A page at a time, each document charged to the budget as it is made.
            var documents: [JSONValue] = []
            var skipped = 0
            var last: Int64?
            while documents.count < limit {
                let page = try Self.records(
                    of: kind, in: index, after: last,
                    limit: skipped < offset ? 500 : min(limit - documents.count, 500))
                for record in page where documents.count < limit {
                    last = record.id
                    if skipped < offset {
                        skipped += 1
                        continue
                    }
                    let document = JSONValue.object(Self.document(record, fields: fields))
                    try budget.charge(document)
                    documents.append(document)
                }
                if page.isEmpty { break }
            }
            let total =
                switch kind {
                case .people: try index.count(Person.self)
                case .animals: try index.count(Animal.self)
                }
            return (documents, total)
        }
        return JSONResponse.object([
            "results": .array(documents),
            "offset": .integer(offset),
            "limit": .integer(limit),
            "total": .integer(total),
        ])
    }

    // MARK: Writing

    /// Adds or replaces (`updating` false), or adds or updates (true: the fields given replace
    /// those stored, the others stay), the documents of the body, in one import: all or none.
    /// A body that is not JSON, NDJSON or CSV is a 400 at once; a document without a valid id,
    /// or that is not a valid record, makes the task fail.
    private func write(_ request: Request, into kind: Kind, updating: Bool) async throws
        -> Response
    {
        let parameters = try QueryParameters(
            request, allowing: ["primaryKey", "csvDelimiter", "customMetadata", "skipCreation"],
            maximumSize: configuration.maximumQuerySize)
        if let key = parameters["primaryKey"], key != "id" {
            throw MeilisearchError.invalid(
                "index_primary_key_already_exists",
                "The primary key of `\(kind.rawValue)` is `id`, not `\(key)`.")
        }
        // skipCreation=true: documents whose id is not in the index are left out, not created.
        if let skip = parameters["skipCreation"], skip != "true", skip != "false" {
            throw MeilisearchError.invalid(
                "invalid_skip_creation",
                "Invalid value in parameter `skipCreation`: could not parse `\(skip)` as a "
                    + "boolean.")
        }
        let format: InputFormat
        switch Routes.format(ofContentType: request.headers[.contentType]) {
        case .json?: format = .json
        case .ndjson?: format = .ndjson
        case .csv?: format = .csv
        default:
            throw MeilisearchError(
                .unsupportedMediaType, code: "invalid_content_type",
                "The Content-Type must be application/json, application/x-ndjson or text/csv.")
        }
        var delimiter: UInt8?
        if let text = parameters["csvDelimiter"] {
            guard text.utf8.count == 1, let byte = text.utf8.first, byte < 0x80,
                byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r")
            else {
                throw MeilisearchError.invalid(
                    "invalid_document_csv_delimiter",
                    "Invalid value in parameter `csvDelimiter`: expected one ASCII character "
                        + "(not a quote or a line break), not `\(text)`.")
            }
            guard format == .csv else {
                throw MeilisearchError.invalid(
                    "invalid_document_csv_delimiter",
                    "The Content-Type `\(request.headers[.contentType] ?? "")` does not support "
                        + "the use of a csv delimiter. The csv delimiter can only be used with "
                        + "the Content-Type `text/csv`.")
            }
            delimiter = byte == UInt8(ascii: ",") ? nil : byte
        }
        let csvDelimiter = delimiter
        let skipsCreation = parameters["skipCreation"] == "true"
        let enqueuedAt = Timestamp.now()
        let problem = DocumentProblem()
        let outcome: Result<Int, any Error>
        do {
            outcome = .success(
                try await bodies.spooled(
                    request.body, limit: configuration.maximumImportSize, to: pool
                ) { index, body in
                    let source: any ByteSource =
                        csvDelimiter.map { CSVDelimiterTranscoder(base: body, delimiter: $0) }
                        ?? body
                    let (_, reader) = try InputFormat.makeReader(for: source, format: format)
                    let existing =
                        skipsCreation
                        ? Set(
                            try Self.records(of: kind, in: index, after: nil, limit: nil)
                                .compactMap(\.id)) : nil
                    let documents = DocumentReader(
                        base: reader, kind: kind, problem: problem, existing: existing)
                    try index.importRecords(
                        from: [ImportSource(name: "body", reader: documents)],
                        options: ImportOptions(
                            kind: kind, keepsStoredFields: updating,
                            maximumFieldSize: configuration.maximumFieldSize))
                    return problem.count
                })
        } catch let error as ImportError {
            outcome = .failure(error)
        }
        if case .success(0) = outcome {
            throw MeilisearchError.invalid("missing_payload", "The body holds no documents.")
        }
        if let failure = problem.failure,
            ["malformed_payload", "missing_payload"].contains(failure.code)
        {
            throw failure
        }
        let error: MeilisearchError? =
            switch outcome {
            case .success: nil
            case .failure(let error): problem.failure ?? Self.documentError(error)
            }
        let received = problem.count
        return finish(
            kind: kind, type: "documentAdditionOrUpdate", enqueuedAt: enqueuedAt, error: error,
            customMetadata: parameters["customMetadata"],
            details: [
                "receivedDocuments": .integer(received),
                "indexedDocuments": .integer(error == nil ? received - problem.skipped : 0),
            ])
    }

    private static func documentError(_ error: any Error) -> MeilisearchError {
        if case ImportError.invalidRecord(let problem) = error {
            return .invalid(
                "invalid_document_fields", "Document at line \(problem.line): \(problem.reason).")
        }
        return MeilisearchError(error)
    }

    /// Deletes these documents (`nil`: all of them) as a task; ids without a document are
    /// not an error (`deletedDocuments` counts those deleted).
    private func delete(ids: [Int64]?, from kind: Kind, customMetadata: String?) async throws
        -> Response
    {
        let enqueuedAt = Timestamp.now()
        let deleted = try await pool.write { index in
            let ids =
                try ids?.filter { try Self.record(of: kind, id: $0, in: index) != nil }
                ?? Self.records(of: kind, in: index, after: nil, limit: nil).compactMap(\.id)
            switch kind {
            case .people: return try index.delete(Person.self, ids: ids)
            case .animals: return try index.delete(Animal.self, ids: ids)
            }
        }
        var details: KeyValuePairs<String, JSONValue> = ["deletedDocuments": .integer(deleted)]
        if let ids {
            details = ["providedIds": .integer(ids.count), "deletedDocuments": .integer(deleted)]
        }
        return finish(
            kind: kind, type: "documentDeletion", enqueuedAt: enqueuedAt, error: nil,
            customMetadata: customMetadata, details: details)
    }

    /// Records the finished task and answers 202 with its receipt.
    private func finish(
        kind: Kind, type: String, enqueuedAt: Timestamp, error: MeilisearchError?,
        customMetadata: String?, details: KeyValuePairs<String, JSONValue>
    ) -> Response {
        var task = MeilisearchTaskStore.Task(
            uid: 0, indexUid: kind.rawValue, type: type,
            status: error == nil ? "succeeded" : "failed",
            details: details.map { JSONMember(key: $0.key, value: $0.value) },
            error: error?.jsonObject ?? .null, enqueuedAt: enqueuedAt, startedAt: enqueuedAt,
            finishedAt: Timestamp.now(), customMetadata: customMetadata)
        return accepted(&task)
    }

    /// Keeps the finished task (a task file that cannot be written is logged: the change was
    /// made, and the task is kept until the server stops) and answers 202 with its receipt.
    func accepted(_ task: inout MeilisearchTaskStore.Task) -> Response {
        if let failure = tasks.record(&task) {
            let message =
                "task \(task.uid) (\(task.status)) could not be written to \(tasks.path): "
                + "\(failure); it is kept until the server stops"
            logger.warning("\(message)")
        }
        return JSONResponse.make(task.receipt, status: .accepted)
    }
}

/// What the documents of a write held: how many, and the first problem.
private final class DocumentProblem: Sendable {
    private let state = Mutex<(count: Int, skipped: Int, failure: MeilisearchError?)>((0, 0, nil))

    var count: Int { state.withLock { $0.count } }
    var skipped: Int { state.withLock { $0.skipped } }
    var failure: MeilisearchError? { state.withLock { $0.failure } }

    func counted() { state.withLock { $0.count += 1 } }

    func skippedOne() { state.withLock { $0.skipped += 1 } }

    func fail(_ error: MeilisearchError) {
        state.withLock { state in if state.failure == nil { state.failure = error } }
    }
}

/// The documents of a body, checked for a valid `id` as Meilisearch checks its primary key.
/// (When updating, the import merges each with the stored document of its id: see
/// ``ImportOptions/keepsStoredFields``.)
private struct DocumentReader: RecordReader {
    var base: any RecordReader
    let kind: Kind
    let problem: DocumentProblem
    /// With `skipCreation=true`: the ids in the index; a document with another is left out.
    let existing: Set<Int64>?

    var bytesConsumed: Int64 { base.bytesConsumed }

    mutating func nextRecord() throws(RecordSyntaxError) -> SourceRecord? {
        while true {
            guard let record = try nextDocument() else { return nil }
            guard let existing,
                let id = record.fields.first(where: { $0.key == "id" }),
                let number = try? MeilisearchRoutes.documentID(id.value),
                !existing.contains(number)
            else { return record }
            problem.skippedOne()
        }
    }

    private mutating func nextDocument() throws(RecordSyntaxError) -> SourceRecord? {
        let next: SourceRecord?
        do {
            next = try base.nextRecord()
        } catch {
            problem.fail(
                problem.count == 0 && base.bytesConsumed == 0
                    ? .invalid("missing_payload", "The body holds no documents.")
                    : .invalid(
                        "malformed_payload",
                        "The body is not valid: line \(error.line): \(error.reason)."))
            throw error
        }
        guard let record = next else { return nil }
        problem.counted()
        guard let id = record.fields.first(where: { $0.key == "id" }) else {
            return try fail(
                record,
                .invalid(
                    "missing_document_id",
                    "Document at line \(record.line) has no `id`, the primary key of "
                        + "`\(kind.rawValue)`."))
        }
        do {
            _ = try MeilisearchRoutes.documentID(id.value)
        } catch {
            return try fail(record, error)
        }
        return record
    }

    private func fail(_ record: SourceRecord, _ error: MeilisearchError) throws(RecordSyntaxError)
        -> SourceRecord?
    {
        problem.fail(error)
        throw RecordSyntaxError(line: record.line, reason: error.message, isRecoverable: false)
    }
}
