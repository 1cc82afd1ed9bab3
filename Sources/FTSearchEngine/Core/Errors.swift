public import FTSearchSQLite

/// An error SQLite itself reported (a full disk, a damaged file, a lock held too long), with its
/// typed `SQLiteResultCode`.
public typealias SQLiteError = FTSearchSQLite.SQLiteError

/// A database written by a newer version of ftsearch, which this one must not change.
public struct SchemaVersionError: Error, CustomStringConvertible, Sendable {
    /// The database file.
    public let path: String
    /// The schema version found in the file.
    public let found: Int
    /// The newest schema version this version of the library knows.
    public let supported: Int

    package init(path: String, found: Int, supported: Int) {
        self.path = path
        self.found = found
        self.supported = supported
    }

    /// A sentence saying what is wrong and what to do.
    public var description: String {
        "\(path) has schema version \(found), but this ftsearch supports up to \(supported); "
            + "upgrade ftsearch to use it"
    }
}
