import FTSearchKit
import Hummingbird

/// `GET/PATCH/DELETE /api/{people|animals}/{id}` and `POST /api/{people|animals}`: the store,
/// one record at a time, checked as an import checks records (an invalid one is a 422 with
/// the library's reason). Records are the objects `ftsearch show --format json` prints.
extension Routes {
    func addRecordRoutes(to routes: RouteTable) {
        for kind in Kind.allCases {
            let path = "/api/\(kind.rawValue)"
            routes.on(path, .post) { request, _ in try await insert(request, kind: kind) }
            routes.on(path + "/:id", .get) { request, context in
                try await find(request, kind: kind, id: try Self.id(context))
            }
            routes.on(path + "/:id", .patch) { request, context in
                try await update(request, kind: kind, id: try Self.id(context))
            }
            routes.on(path + "/:id", .delete) { request, context in
                try await delete(request, kind: kind, id: try Self.id(context))
            }
        }
    }

    private static func id(_ context: ServerContext) throws(APIError) -> Int64 {
        let text = context.parameters.get("id") ?? ""
        guard let id = Int64(text), id > 0 else { throw .notFound("no record with id \(text)") }
        return id
    }

    private func find(_ request: Request, kind: Kind, id: Int64) async throws -> Response {
        _ = try QueryParameters(request, allowing: [], maximumSize: configuration.maximumQuerySize)
        let record = try await pool.read { index in
            try Self.find(kind.modelType, id: id, in: index)
        }
        guard let record else { throw APIError.notFound("no \(kind.singularNoun) with id \(id)") }
        return JSONResponse.make(record.jsonObject)
    }

    /// The body's fields, named as an import names them (`first_name`, `lastName`, `company`,
    /// `name`, any extra field); 201 with the record and its `Location`.
    private func insert(_ request: Request, kind: Kind) async throws -> Response {
        _ = try QueryParameters(request, allowing: [], maximumSize: configuration.maximumQuerySize)
        let fields = try await bodies.jsonObject(request)
        try checkFieldSizes(fields)
        let record = try AnyRecord(kind: kind, fields: fields)
        let stored = try await pool.write { index in try Self.insert(record, into: index) }
        var response = JSONResponse.make(stored.jsonObject, status: .created)
        response.headers[.location] = "/api/\(kind.rawValue)/\(stored.id ?? 0)"
        return response
    }

    /// Changes the fields the body gives, by their stored names; `null` removes an extra field.
    private func update(_ request: Request, kind: Kind, id: Int64) async throws -> Response {
        _ = try QueryParameters(request, allowing: [], maximumSize: configuration.maximumQuerySize)
        let changes = try await bodies.jsonObject(request)
        try checkFieldSizes(changes)
        for change in changes where ["id", "created_at", "updated_at"].contains(change.key) {
            throw APIError(
                .unprocessableContent, code: "invalid_record", "\(change.key) cannot be changed")
        }
        let stored = try await pool.write { index in
            try Self.update(kind.modelType, id: id, with: changes, in: index)
        }
        return JSONResponse.make(stored.jsonObject)
    }

    private func delete(_ request: Request, kind: Kind, id: Int64) async throws -> Response {
        _ = try QueryParameters(request, allowing: [], maximumSize: configuration.maximumQuerySize)
        try await pool.write { index in _ = try index.delete(kind.modelType, ids: [id]) }
        return JSONResponse.make(JSONResponse.object(["deleted": .integer(1)]))
    }

    /// 422 for a field larger than the configuration allows, as an import finds it.
    private func checkFieldSizes(_ fields: [JSONMember]) throws(APIError) {
        if let reason = ImportOptions.oversizedField(
            in: fields, maximumSize: configuration.maximumFieldSize)
        {
            throw APIError(.unprocessableContent, code: "invalid_record", reason)
        }
    }

    // MARK: Generic over the model

    private static func find<Model: RecordModel>(
        _ type: Model.Type, id: Int64, in index: SearchIndex
    ) throws -> AnyRecord? {
        try index.find(type, id: id)?.anyRecord
    }

    private static func insert(_ record: AnyRecord, into index: SearchIndex) throws -> AnyRecord {
        switch record {
        case .person(let person): try index.insert(person).anyRecord
        case .animal(let animal): try index.insert(animal).anyRecord
        }
    }

    private static func update<Model: RecordModel>(
        _ type: Model.Type, id: Int64, with changes: [JSONMember], in index: SearchIndex
    ) throws -> AnyRecord {
        try index.update(type, id: id) { model in
            let changedKeys = Set(changes.map(\.key))
            var fields = model.anyRecord.fields.filter { !changedKeys.contains($0.key) }
            fields += changes.filter {
                $0.value != .null || Model.kind.searchableFields.contains($0.key)
            }
            .map { change in
                change.value == .null ? JSONMember(key: change.key, value: .string("")) : change
            }
            model = Model(try AnyRecord(kind: Model.kind, fields: fields))!
        }.anyRecord
    }
}
