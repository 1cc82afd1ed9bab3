/// An ordered, forward-only list of schema migrations, tracked with `PRAGMA user_version`
/// (https://sqlite.org/pragma.html#pragma_user_version).
///
/// Each migration runs in its own immediate transaction together with the version bump, so a
/// crash leaves the schema at a known version, and two processes migrating the same new file
/// at once apply each step exactly once.
public struct Migrator: Sendable {
    /// One named schema change.
    public struct Migration: Sendable {
        /// What the migration does, for people reading the code.
        public let name: String
        /// Applies the migration; runs inside a transaction. A migration that rewrites many
        /// rows reports how far it has come through the second argument.
        public let apply: @Sendable (Database, (ImportProgress) -> Void) throws -> Void
    }

    /// The migrations, oldest first; migration `n` (0-based) brings the schema to version `n + 1`.
    public private(set) var migrations: [Migration] = []

    /// Creates an empty migrator.
    public init() {}

    /// Appends a migration.
    public mutating func registerMigration(
        _ name: String, _ apply: @escaping @Sendable (Database) throws -> Void
    ) {
        migrations.append(Migration(name: name) { database, _ in try apply(database) })
    }

    /// Appends a migration that reports its progress (one that rewrites many rows).
    public mutating func registerMigration(
        _ name: String,
        _ apply: @escaping @Sendable (Database, (ImportProgress) -> Void) throws -> Void
    ) {
        migrations.append(Migration(name: name, apply: apply))
    }

    /// The schema version this migrator brings a database to.
    public var latestVersion: Int { migrations.count }

    /// The first `count` migrations alone: what brought a database to schema version `count`,
    /// as an older program would leave it (tests of upgrades build such databases).
    public func prefix(_ count: Int) -> Migrator {
        var older = Migrator()
        older.migrations = Array(migrations.prefix(count))
        return older
    }

    /// The schema version recorded in `database`.
    public static func version(of database: Database) throws -> Int {
        try database.fetchInt(sql: "PRAGMA user_version") ?? 0
    }

    /// Applies every migration `database` has not had yet; `onProgress` hears from migrations
    /// that rewrite many rows.
    ///
    /// - Throws: ``SchemaVersionError`` when the database was written by a newer program, and
    ///   then changes nothing; ``SQLiteError`` when a migration fails (that migration is rolled
    ///   back).
    public func migrate(
        _ database: Database, onProgress: (ImportProgress) -> Void = { _ in }
    ) throws {
        try checkCompatibility(of: database)
        for (index, migration) in migrations.enumerated() {
            try database.inTransaction(.immediate) {
                guard try Self.version(of: database) == index else { return }
                try migration.apply(database, onProgress)
                try database.execute(sql: "PRAGMA user_version = \(index + 1)")
            }
        }
    }

    /// Throws when `database` has a schema newer than this migrator knows.
    public func checkCompatibility(of database: Database) throws {
        let version = try Self.version(of: database)
        if version > latestVersion {
            throw SchemaVersionError(path: database.path, found: version, supported: latestVersion)
        }
    }
}

/// A database written by a newer version of the program, which this one must not change.
public struct SchemaVersionError: Error, CustomStringConvertible, Sendable {
    /// The database file.
    public let path: String
    /// The schema version found in the file.
    public let found: Int
    /// The newest schema version this program knows.
    public let supported: Int

    /// A sentence saying what is wrong and what to do.
    public var description: String {
        "\(path) has schema version \(found), but this ftsearch supports up to \(supported); "
            + "upgrade ftsearch to use it"
    }
}
