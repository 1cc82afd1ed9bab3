import Foundation
import Testing

@testable import FTSearchEngine
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

    /// A new database gets the latest schema at once (``Schema/createNewDatabase(_:)``): the objects
    /// the latest version shipped with, and the rows the migrations leave in every table but
    /// FTS5's `%_data` (an empty index's averages and structure records, whose cookie counts
    /// the migrations' rebuilds); FTS5 settings stored at their default values count as absent.
    @Test func aNewDatabaseGetsWhatTheMigrationsLeave() throws {
        let created = try Database(path: ":memory:")
        try created.registerSearchExtensions()
        try Schema.migrator.migrate(created)
        let replayed = try Database(path: ":memory:")
        try replayed.registerSearchExtensions()
        try Schema.migrator.prefix(Schema.migrator.latestVersion).migrate(replayed)

        let file = ConformanceSuite.resources + "/schema/v\(Schema.migrator.latestVersion).sql"
        let shipped = try #require(FileManager.default.contents(atPath: file))
        #expect(try Self.dump(of: created) == String(decoding: shipped, as: UTF8.self))
        let tables = try Self.storedTables(of: replayed)
        #expect(try Self.storedTables(of: created) == tables)
        for table in tables where !table.hasSuffix("_data") {
            #expect(try Self.rows(of: table, in: created) == Self.rows(of: table, in: replayed))
        }
    }

    /// The tables of `database` that store rows (not virtual ones), by name.
    static func storedTables(of database: Database) throws -> [String] {
        var names: [String] = []
        try database.makeStatement(
            sql: """
                SELECT name FROM sqlite_schema
                WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name
                """
        ).forEachRow { names.append($0.text(at: 0) ?? "") }
        return names
    }

    /// Every row of `table`, quoted and sorted; FTS5 settings at their defaults left out.
    static func rows(of table: String, in database: Database) throws -> [String] {
        var columns: [String] = []
        try database.makeStatement(sql: "SELECT name FROM pragma_table_info(?1)")
            .forEachRow([table]) { columns.append("quote(\"\($0.text(at: 0) ?? "")\")") }
        var rows: [String] = []
        try database.makeStatement(
            sql: "SELECT \(columns.joined(separator: " || '|' || ")) FROM \"\(table)\" ORDER BY 1"
        ).forEachRow { rows.append($0.text(at: 0) ?? "") }
        let defaults = [IndexSync.Setting.automerge, .crisismerge, .hashsize].map {
            "'\($0.rawValue)'|\($0.defaultValue)"
        }
        return table.hasSuffix("_config") ? rows.filter { !defaults.contains($0) } : rows
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
