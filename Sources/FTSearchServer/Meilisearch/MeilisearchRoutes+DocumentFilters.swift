import FTSearchKit
import Hummingbird

/// The documents of an index chosen by `filter` and ordered by `sort` (`GET .../documents`,
/// `POST .../documents/fetch`), and deleted by filter (`POST .../documents/delete`): the same
/// filter language and settings checks as search, with the `invalid_document_*` codes
/// Meilisearch gives them here.
extension MeilisearchRoutes {
    /// `results` (the documents that pass `filter`, in `sort`'s order or else by id), `offset`,
    /// `limit`, `total`.
    func filteredDocuments(
        of kind: Kind, offset: Int, limit: Int, fields: [String]?, filter: JSONValue,
        sort: JSONValue
    ) async throws -> JSONValue {
        var request = try documentRequest(kind, filter: filter, sort: sort)
        request.limit = limit
        request.offset = offset
        let results = try await pool.search(request)
        let wanted = fields.flatMap { $0.contains("*") ? nil : Set($0) }
        let budget = answerBudget()
        var documents: [JSONValue] = []
        for hit in results.hits {
            let document = JSONValue.object(
                hit.record.documentMembers.filter { wanted?.contains($0.key) ?? true })
            try budget.charge(document)
            documents.append(document)
        }
        return JSONResponse.object([
            "results": .array(documents),
            "offset": .integer(offset),
            "limit": .integer(limit),
            "total": .integer(results.total),
        ])
    }

    /// Deletes the documents that pass the body's `filter`, as one `documentDeletion` task
    /// (`providedIds: 0`, `deletedDocuments`, `originalFilter`, as in Meilisearch).
    func deleteDocuments(_ request: Request, from kind: Kind, customMetadata: String?)
        async throws -> Response
    {
        var filter: JSONValue?
        for member in try await bodies.jsonObject(request) {
            guard member.key == "filter" else {
                throw MeilisearchError.invalid(
                    "bad_request", "Unknown field `\(member.key)`: expected one of `filter`.")
            }
            filter = member.value
        }
        guard let filter, !MeilisearchSearchQuery.isEmpty(filter) else {
            throw MeilisearchError.invalid(
                "missing_document_filter", "Missing field `filter`.")
        }
        var matching = try documentRequest(kind, filter: filter, sort: .null)
        matching.limit = nil
        let search = matching
        let enqueuedAt = Timestamp.now()
        let deleted = try await pool.write { index in
            let ids = try index.search(search).hits.compactMap(\.record.id)
            switch kind {
            case .people: return try index.delete(Person.self, ids: ids)
            case .animals: return try index.delete(Animal.self, ids: ids)
            }
        }
        var task = MeilisearchTaskStore.Task(
            uid: 0, indexUid: kind.rawValue, type: "documentDeletion", status: "succeeded",
            details: [
                JSONMember(key: "providedIds", value: .integer(0)),
                JSONMember(key: "deletedDocuments", value: .integer(deleted)),
                JSONMember(key: "originalFilter", value: .string(filter.jsonText)),
            ], error: .null, enqueuedAt: enqueuedAt, startedAt: enqueuedAt,
            finishedAt: Timestamp.now(), customMetadata: customMetadata)
        return accepted(&task)
    }

    /// A listing (empty text) of `kind` with the filter and sort, checked as a search's are.
    private func documentRequest(_ kind: Kind, filter: JSONValue, sort: JSONValue) throws
        -> SearchRequest
    {
        do {
            let query = try MeilisearchSearchQuery(
                members: [
                    JSONMember(key: "filter", value: filter), JSONMember(key: "sort", value: sort),
                ], maximumLimit: configuration.maximumLimit,
                maximumTagSize: configuration.maximumTagSize)
            try query.checkAttributes([], kind: kind, settings: settings.settings(of: kind))
            var request = SearchRequest(text: "", kinds: kind == .people ? .people : .animals)
            request.filter = query.filter
            request.sort = query.sort
            return request
        } catch var error {
            error.code = error.code.replacing("invalid_search_", with: "invalid_document_")
            throw error
        }
    }
}
