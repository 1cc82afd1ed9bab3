public import FTSearchSQLite

/// How a command waits for another process's write (see ``SearchIndex/init(path:mode:clock:lockWaiting:onMigrationProgress:)``).
public typealias LockWaiting = FTSearchSQLite.LockWaiting
/// The process that holds a database's write lock.
public typealias LockHolder = FTSearchSQLite.LockHolder
/// A write that did not start because another process was writing and this one was not to wait.
public typealias DatabaseBusyError = FTSearchSQLite.DatabaseBusyError
