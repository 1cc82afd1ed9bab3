import FTSearchKit
import Hummingbird

/// The settings routes apps call before they filter: `GET`/`PATCH`/`DELETE
/// /indexes/{uid}/settings`, and `GET`, `PUT` (`PATCH` for `faceting` and `pagination`, as in
/// Meilisearch) and `DELETE` of `/indexes/{uid}/settings/{setting}` for each setting ftsearch
/// applies (``MeilisearchSettings/Setting``). A write is a `settingsUpdate` task, finished
/// before its receipt as every write here; a wrong value is refused at once with
/// `invalid_settings_*`, as Meilisearch refuses one.
extension MeilisearchRoutes {
    func addSettingsRoutes(_ on: AddRoute) {
        on("/indexes/:uid/settings", .get) { request, context in
            let kind = try Self.kind(context)
            _ = try parameters(of: request, allowing: [])
            return JSONResponse.make(settings.settings(of: kind).jsonObject)
        }
        on("/indexes/:uid/settings", .patch) { request, context in
            let kind = try Self.kind(context)
            _ = try parameters(of: request, allowing: [])
            let members = try await bodies.jsonObject(request)
            let enqueuedAt = Timestamp.now()
            let details = try settings.update(kind) { settings throws(MeilisearchError) in
                var details: [JSONMember] = []
                for member in members {
                    if let setting = MeilisearchSettings.Setting(rawValue: member.key) {
                        let value = try settings.set(setting, to: member.value, kind: kind)
                        details.append(JSONMember(key: member.key, value: value))
                    } else {
                        try MeilisearchSettings.check(fixed: member)
                        details.append(member)
                    }
                }
                return details
            }
            return settingsTask(kind, enqueuedAt: enqueuedAt, details: details)
        }
        on("/indexes/:uid/settings", .delete) { request, context in
            let kind = try Self.kind(context)
            _ = try parameters(of: request, allowing: [])
            let enqueuedAt = Timestamp.now()
            try settings.update(kind) { $0 = MeilisearchSettings() }
            return settingsTask(
                kind, enqueuedAt: enqueuedAt,
                details: MeilisearchSettings.Setting.allCases.map {
                    JSONMember(key: $0.rawValue, value: $0.defaultValue)
                })
        }
        for setting in MeilisearchSettings.Setting.allCases {
            let path = "/indexes/:uid/settings/" + setting.route
            on(path, .get) { request, context in
                let kind = try Self.kind(context)
                _ = try parameters(of: request, allowing: [])
                return JSONResponse.make(settings.settings(of: kind).value(of: setting))
            }
            let write: HTTPRequest.Method =
                setting == .faceting || setting == .pagination ? .patch : .put
            on(path, write) { request, context in
                let kind = try Self.kind(context)
                _ = try parameters(of: request, allowing: [])
                let value = try await bodies.json(request)
                let enqueuedAt = Timestamp.now()
                let applied = try settings.update(kind) { settings throws(MeilisearchError) in
                    try settings.set(setting, to: value, kind: kind)
                }
                return settingsTask(
                    kind, enqueuedAt: enqueuedAt,
                    details: [JSONMember(key: setting.rawValue, value: applied)])
            }
            on(path, .delete) { request, context in
                let kind = try Self.kind(context)
                _ = try parameters(of: request, allowing: [])
                let enqueuedAt = Timestamp.now()
                let applied = try settings.update(kind) { settings throws(MeilisearchError) in
                    try settings.set(setting, to: .null, kind: kind)
                }
                return settingsTask(
                    kind, enqueuedAt: enqueuedAt,
                    details: [JSONMember(key: setting.rawValue, value: applied)])
            }
        }
    }

    /// Records a succeeded `settingsUpdate` task on `kind` and answers 202 with its receipt.
    private func settingsTask(_ kind: Kind, enqueuedAt: Timestamp, details: [JSONMember])
        -> Response
    {
        var task = MeilisearchTaskStore.Task(
            uid: 0, indexUid: kind.rawValue, type: "settingsUpdate", status: "succeeded",
            details: details, error: .null, enqueuedAt: enqueuedAt, startedAt: enqueuedAt,
            finishedAt: Timestamp.now())
        return accepted(&task)
    }
}
