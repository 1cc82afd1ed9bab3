import Foundation
import Testing

@testable import FTSearchKit
import FTSearchSQLite

/// Shipped migrations are history: a database built to any version must have exactly the schema
/// that version shipped with, as recorded in `Resources/schema/vN.sql`. Editing a shipped
/// migration (or something it calls) changes a dump, and this test fails.
///
/// To record a new version's dump, run the tests with `FTSEARCH_RECORD_SCHEMA=1`; dumps of
/// versions that exist already are never rewritten.
@Suite struct FrozenMigrationTests {
    static let versions = Array(1...Schema.migrator.latestVersion)

    @Test(arguments: versions)
    func schemaAtVersionIsAsItShipped(version: Int) throws {
        let database = try Database(path: ":memory:")
        try database.registerSearchExtensions()
        try Schema.migrator.prefix(version).migrate(database)
        let dump = try Self.dump(of: database)
        let file = ConformanceSuite.resources + "/schema/v\(version).sql"
        guard let shipped = FileManager.default.contents(atPath: file) else {
            if ProcessInfo.processInfo.environment["FTSEARCH_RECORD_SCHEMA"] == "1" {
                try dump.write(toFile: file, atomically: true, encoding: .utf8)
                return
            }
            Issue.record("no dump of schema version \(version) at \(file)")
            return
        }
        #expect(dump == String(decoding: shipped, as: UTF8.self))
    }

    /// The history's own file (see `HistoryFile`) has its own frozen migrations.
    @Test(arguments: Array(1...Schema.historyMigrator.latestVersion))
    func historySchemaAtVersionIsAsItShipped(version: Int) throws {
        let database = try Database(path: ":memory:")
        try Schema.historyMigrator.prefix(version).migrate(database)
        let dump = try Self.dump(of: database)
        let file = ConformanceSuite.resources + "/schema/history-v\(version).sql"
        guard let shipped = FileManager.default.contents(atPath: file) else {
            if ProcessInfo.processInfo.environment["FTSEARCH_RECORD_SCHEMA"] == "1" {
                try dump.write(toFile: file, atomically: true, encoding: .utf8)
                return
            }
            Issue.record("no dump of history schema version \(version) at \(file)")
            return
        }
        #expect(dump == String(decoding: shipped, as: UTF8.self))
    }

    /// Every object of the schema with its SQL, in name order, and the version.
    static func dump(of database: Database) throws -> String {
        var lines = ["-- user_version \(try Migrator.version(of: database))"]
        let objects = try database.makeStatement(
            sql: "SELECT type, name, sql FROM sqlite_schema ORDER BY type, name")
        try objects.forEachRow { row in
            lines.append("-- \(row.text(at: 0) ?? "") \(row.text(at: 1) ?? "")")
            lines.append((row.text(at: 2) ?? "") + ";")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
