import FTSearchKit

/// The query of `GET /stats` and `GET /indexes/{uid}/stats`: `showInternalDatabaseSizes`
/// (`true` adds each index's `internalDatabaseSizes`) and `sizeFormat` (`raw`, the default:
/// sizes in bytes; `human`: text with a binary unit, `19.64 MiB`).
struct StatsOptions {
    static let names: Set<String> = ["showInternalDatabaseSizes", "sizeFormat"]

    var showsInternalDatabaseSizes = false
    var isHuman = false

    init(_ parameters: QueryParameters) throws(MeilisearchError) {
        switch parameters["showInternalDatabaseSizes"] {
        case nil, "false": break
        case "true": showsInternalDatabaseSizes = true
        case let text?:
            throw .invalid(
                "invalid_stats_show_internal_database_sizes",
                "Invalid value in parameter `showInternalDatabaseSizes`: could not parse "
                    + "`\(text)` as a boolean.")
        }
        switch parameters["sizeFormat"] {
        case nil, "raw": break
        case "human": isHuman = true
        case let text?:
            throw .invalid(
                "invalid_stats_size_format",
                "Unknown value `\(text)` at `sizeFormat`: expected one of `human`, `raw`.")
        }
    }

    /// A size as the format asks.
    func size(_ bytes: Int) -> JSONValue {
        isHuman ? .string(Self.human(bytes)) : .integer(bytes)
    }

    /// `512 B`, `1.50 KiB`, `19.64 MiB`.
    static func human(_ bytes: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return "\(bytes) B" }
        var scale = 1024
        var unit = 0
        while unit + 1 < units.count && bytes >= scale * 1024 {
            scale *= 1024
            unit += 1
        }
        let hundredths = (bytes * 100 + scale / 2) / scale
        let fraction = String(hundredths % 100)
        return
            "\(hundredths / 100).\(fraction.count == 1 ? "0" + fraction : fraction) \(units[unit])"
    }
}
