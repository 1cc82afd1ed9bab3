import Testing
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

@Suite struct MigratorTests {
    private func migrator(failingAt failing: Int? = nil) -> Migrator {
        var migrator = Migrator()
        for step in 1...3 {
            migrator.registerMigration("step \(step)") { database in
                try database.execute(sql: "CREATE TABLE t\(step)(x)")
                if step == failing { try database.execute(sql: "SELECT no_such_function()") }
            }
        }
        return migrator
    }

    @Test func appliesEachMigrationOnceInOrder() throws {
        let database = try Database(path: ":memory:")
        try migrator().migrate(database)
        #expect(try Migrator.version(of: database) == 3)
        // Nothing left to do: the CREATE TABLEs would fail if they ran again.
        try migrator().migrate(database)
        #expect(try database.fetchInt(sql: "SELECT count(*) FROM sqlite_schema") == 3)
    }

    @Test func failedMigrationIsRolledBackAndStopsAtTheLastGoodVersion() throws {
        let database = try Database(path: ":memory:")
        #expect(throws: SQLiteError.self) { try migrator(failingAt: 2).migrate(database) }
        #expect(try Migrator.version(of: database) == 1)
        #expect(
            try database.fetchInt(sql: "SELECT count(*) FROM sqlite_schema WHERE name = 't2'") == 0)
    }

    /// A new database gets the setup instead of the migrations, at the latest version; one at
    /// an older version gets the migrations it lacks, never the setup.
    @Test func newDatabaseGetsTheSetupAndAnOlderOneItsMigrations() throws {
        var migrator = migrator()
        migrator.newDatabaseSetup = { database in
            try database.execute(sql: "CREATE TABLE everything(x)")
        }
        let new = try Database(path: ":memory:")
        try migrator.migrate(new)
        #expect(try Migrator.version(of: new) == 3)
        #expect(
            try new.fetchText(sql: "SELECT group_concat(name) FROM sqlite_schema") == "everything")
        try migrator.migrate(new)  // nothing left: the setup's CREATE TABLE would fail again

        let older = try Database(path: ":memory:")
        try self.migrator().prefix(1).migrate(older)
        try migrator.migrate(older)
        #expect(try Migrator.version(of: older) == 3)
        #expect(
            try older.fetchText(sql: "SELECT group_concat(name) FROM sqlite_schema ORDER BY name")
                == "t1,t2,t3")
        // The frozen versions replay the migrations: a prefix has no setup.
        #expect(migrator.prefix(3).newDatabaseSetup == nil)
    }

    @Test func newerDatabaseIsRefusedUntouched() throws {
        let database = try Database(path: ":memory:")
        try database.execute(sql: "PRAGMA user_version = 7")
        let error = try #require(throws: NewerSchemaError.self) {
            try migrator().migrate(database)
        }
        #expect(error.found == 7 && error.supported == 3)
        #expect(try database.fetchInt(sql: "SELECT count(*) FROM sqlite_schema") == 0)
    }
}
