/// Why this process can read a database but not change it.
public enum ReadOnlyReason: Sendable, Equatable, CustomStringConvertible {
    /// The file's permissions do not let this user write it (another user's file, say).
    case permissionDenied
    /// The file is on a file system mounted read-only.
    case readOnlyFileSystem
    /// The file could be written, but its folder cannot: SQLite cannot make the `-wal` and
    /// `-shm` files it needs beside it.
    case folderNotWritable
    /// It was opened for reading only (``SearchIndex/OpenMode/readOnly``).
    case openedForReading

    /// A clause saying why, such as "you do not have permission to write it".
    public var description: String {
        switch self {
        case .permissionDenied: "you do not have permission to write it"
        case .readOnlyFileSystem: "it is on a read-only file system"
        case .folderNotWritable: "its folder is not writable"
        case .openedForReading: "it was opened for reading only"
        }
    }
}

/// A change asked of a database that this process can only read.
///
/// Thrown before anything is written, so the database is unchanged:
/// `cannot import records: /srv/team.sqlite is read-only (you do not have permission to write it)`.
public struct ReadOnlyDatabaseError: Error, CustomStringConvertible, Sendable {
    /// The database file.
    public let path: String
    /// Why it is read-only.
    public let reason: ReadOnlyReason
    /// What could not be done, as a verb phrase such as "import records".
    public let change: String
    /// What the user can do instead, when there is something to say: a clause such as
    /// "search with prefix matching".
    public let advice: String?

    /// Creates the error for `change`, refused on the read-only database at `path`.
    public init(path: String, reason: ReadOnlyReason, change: String, advice: String? = nil) {
        self.path = path
        self.reason = reason
        self.change = change
        self.advice = advice
    }

    /// `cannot CHANGE: PATH is read-only (REASON)`, then `; ADVICE` when there is advice.
    public var description: String {
        "cannot \(change): \(path) is read-only (\(reason))" + (advice.map { "; \($0)" } ?? "")
    }
}
