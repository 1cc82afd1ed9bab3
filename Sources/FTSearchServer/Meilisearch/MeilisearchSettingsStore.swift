import FTSearchKit
import HTTPTypes
import Synchronization

/// The settings of the two indexes, kept in a file beside the database
/// (`people.sqlite.meilisearch-settings.json`: `{"people":{...},"animals":{...}}`, only what
/// was set), as the tasks are (``MeilisearchTaskStore``): they belong to the
/// Meilisearch-compatible API, not to the library, and survive a restart. The file is replaced
/// whole on each change; a file that does not read as JSON leaves every setting at its default.
final class MeilisearchSettingsStore: Sendable {
    let path: String
    private let settings: Mutex<[Kind: MeilisearchSettings]>

    /// Opens (or starts) the settings file of the database at `databasePath`.
    init(databasePath: String) {
        path = databasePath + ".meilisearch-settings.json"
        var settings: [Kind: MeilisearchSettings] = [:]
        if case .object(let indexes)? = JSONValue(parsing: SidecarFile.contents(of: path)) {
            for index in indexes {
                guard let kind = Kind(rawValue: index.key), case .object(let kept) = index.value
                else { continue }
                settings[kind] = MeilisearchSettings(kept: kept)
            }
        }
        self.settings = Mutex(settings)
    }

    /// The settings of `kind`.
    func settings(of kind: Kind) -> MeilisearchSettings {
        settings.withLock { $0[kind] ?? MeilisearchSettings() }
    }

    /// Changes the settings of `kind` with `change` and keeps them.
    ///
    /// - Returns: What `change` returns.
    /// - Throws: What `change` throws (nothing changes then); 500 `io_error` when the file
    ///   cannot be replaced (nor do the settings change then).
    func update<T>(
        _ kind: Kind, _ change: (inout MeilisearchSettings) throws(MeilisearchError) -> T
    ) throws(MeilisearchError) -> T {
        try settings.withLock { all throws(MeilisearchError) in
            var changed = all
            var settings = changed[kind] ?? MeilisearchSettings()
            let result = try change(&settings)
            changed[kind] = settings
            let object = JSONValue.object(
                Kind.allCases.compactMap { kind in
                    changed[kind].map {
                        JSONMember(key: kind.rawValue, value: .object($0.keptMembers))
                    }
                })
            if let failure = SidecarFile.replace(path, with: object.jsonText + "\n") {
                throw MeilisearchError(
                    .internalServerError, code: "io_error",
                    "the settings file \(path) could not be written (\(failure)): the settings "
                        + "did not change", type: .system)
            }
            all = changed
            return result
        }
    }
}
