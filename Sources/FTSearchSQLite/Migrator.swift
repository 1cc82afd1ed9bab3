/// An ordered, forward-only list of schema migrations, tracked with `PRAGMA user_version`
/// (https://sqlite.org/pragma.html#pragma_user_version).
///
/// Each migration runs in its own immediate transaction together with the version bump, so a
/// crash leaves the schema at a known version, and two processes migrating the same new file
/// at once apply each step exactly once.
package struct Migrator: Sendable {
    /// One named schema change.
    package struct Migration: Sendable {
        /// What the migration does, for people reading the code.
        package let name: String
        /// Applies the migration; runs inside a transaction. A migration that rewrites many
        /// rows reports how far it has come through the second argument.
        package let apply: @Sendable (Database, (MigrationProgress) -> Void) throws -> Void
    }

    /// The migrations, oldest first; migration `n` (0-based) brings the schema to version `n + 1`.
    package private(set) var migrations: [Migration] = []

    /// Makes the latest schema at once in a database at version 0 (a new one), in one
    /// transaction, instead of every migration in turn; nil to apply the migrations. It must
    /// leave the database as they would (tests hold the two equal). ``prefix(_:)`` leaves it out.
    package var newDatabaseSetup: (@Sendable (Database) throws -> Void)?

    /// Creates an empty migrator.
    package init() {}

    /// Appends a migration.
    package mutating func registerMigration(
        _ name: String, _ apply: @escaping @Sendable (Database) throws -> Void
    ) {
        migrations.append(Migration(name: name) { database, _ in try apply(database) })
    }

    /// Appends a migration that reports its progress (one that rewrites many rows).
    package mutating func registerMigration(
        _ name: String,
        _ apply: @escaping @Sendable (Database, (MigrationProgress) -> Void) throws -> Void
    ) {
        migrations.append(Migration(name: name, apply: apply))
    }

    /// The schema version this migrator brings a database to.
    package var latestVersion: Int { migrations.count }

    /// The first `count` migrations alone: what brought a database to schema version `count`,
    /// as an older program would leave it (tests of upgrades build such databases).
    package func prefix(_ count: Int) -> Migrator {
        var older = Migrator()
        older.migrations = Array(migrations.prefix(count))
        return older
    }

    /// The schema version recorded in `database`.
    package static func version(of database: Database) throws -> Int {
        try database.fetchInt(sql: "PRAGMA user_version") ?? 0
    }

    /// Applies every migration `database` has not had yet (a new database gets
    /// ``newDatabaseSetup`` instead, when there is one); `onProgress` hears from migrations that
    /// rewrite many rows.
    ///
    /// - Throws: ``NewerSchemaError`` when the database was written by a newer program, and
    ///   then changes nothing; ``SQLiteError`` when a migration fails (that migration is rolled
    ///   back).
    package func migrate(
        _ database: Database, onProgress: (MigrationProgress) -> Void = { _ in }
    ) throws {
        try checkCompatibility(of: database)
        if let newDatabaseSetup, try Self.version(of: database) == 0 {
            try database.inTransaction(.immediate) {
                guard try Self.version(of: database) == 0 else { return }
                try newDatabaseSetup(database)
                try database.execute(sql: "PRAGMA user_version = \(latestVersion)")
            }
        }
        for (index, migration) in migrations.enumerated() {
            try database.inTransaction(.immediate) {
                guard try Self.version(of: database) == index else { return }
                try migration.apply(database, onProgress)
                try database.execute(sql: "PRAGMA user_version = \(index + 1)")
            }
        }
    }

    /// Throws when `database` has a schema newer than this migrator knows.
    package func checkCompatibility(of database: Database) throws {
        let version = try Self.version(of: database)
        if version > latestVersion {
            throw NewerSchemaError(found: version, supported: latestVersion)
        }
    }
}

/// How far a migration that rewrites many rows has come.
package struct MigrationProgress: Sendable, Equatable {
    /// The rows done so far.
    package let done: Int
    /// The rows to do in all.
    package let total: Int

    package init(done: Int, total: Int) {
        self.done = done
        self.total = total
    }
}

/// A database whose schema version is newer than the migrator knows, which it must not change.
package struct NewerSchemaError: Error, Sendable {
    /// The schema version found in the file.
    package let found: Int
    /// The newest schema version the migrator knows.
    package let supported: Int
}
