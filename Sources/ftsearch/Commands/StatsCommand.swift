import ArgumentParser
import FTSearchKit

/// `ftsearch stats`: counts, size and versions.
struct StatsCommand: ContextualCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Show record counts, database size and versions.")

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.")
    var format: Format = .text

    init() {}

    func run(in context: CommandContext) throws {
        let statistics = try global.openIndex(in: context).statistics()
        switch format {
        case .text:
            var table = TextTable(headers: ["name", "value"])
            table.showsHeaders = false
            table.append(plain: ["database", statistics.path])
            table.append(plain: ["people", String(statistics.people)])
            table.append(plain: ["animals", String(statistics.animals)])
            table.append(plain: ["history", String(statistics.historyEntries)])
            table.append(plain: ["size", ByteCount(statistics.sizeInBytes).description])
            table.append(plain: ["substring index", Self.substringIndexes(statistics)])
            table.append(plain: ["schema version", String(statistics.schemaVersion)])
            table.append(plain: ["sqlite version", statistics.sqliteVersion])
            context.standardOutput.write(table.rendered())
        case .json:
            var counts = JSONWriter()
            counts.add("people", integer: statistics.people)
            counts.add("animals", integer: statistics.animals)
            counts.add("history", integer: statistics.historyEntries)
            var object = JSONWriter()
            object.add("database", string: statistics.path)
            object.add("schema_version", integer: statistics.schemaVersion)
            object.add("sqlite_version", string: statistics.sqliteVersion)
            object.add("size_bytes", integer: statistics.sizeInBytes)
            object.add("counts", json: counts.object)
            var substringIndexes = JSONWriter()
            for kind in Kind.allCases {
                if let size = statistics.substringIndexSizes[kind] {
                    substringIndexes.add(kind.rawValue, integer: size)
                }
            }
            object.add("substring_index_bytes", json: substringIndexes.object)
            context.standardOutput.write(object.object + "\n")
        }
    }
}

extension StatsCommand {
    /// `people 12.4 MiB, animals not built`, or `not built (the first substring search builds
    /// it)`.
    static func substringIndexes(_ statistics: IndexStatistics) -> String {
        guard !statistics.substringIndexSizes.isEmpty else {
            return "not built (the first substring search builds it)"
        }
        return Kind.allCases.map { kind in
            "\(kind.rawValue) "
                + (statistics.substringIndexSizes[kind].map { ByteCount($0).description }
                    ?? "not built")
        }.joined(separator: ", ")
    }
}

/// A size in bytes, for people: `4.2 MiB`.
struct ByteCount: CustomStringConvertible {
    let bytes: Int

    init(_ bytes: Int) { self.bytes = bytes }

    var description: String {
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes)
        var unit = "B"
        for next in ["KiB", "MiB", "GiB", "TiB"] where value >= 1024 {
            value /= 1024
            unit = next
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(unit)"
    }
}
