import CSQLite

extension Database {
    /// Puts the database in WAL mode (https://sqlite.org/wal.html), unless it is in it.
    ///
    /// Switching takes the file's exclusive lock from inside the statement's read
    /// transaction, so when another connection holds a lock on the file then (it reads it, or
    /// switches it too: two processes opening a new file at once), SQLite fails the switch
    /// with `SQLITE_BUSY` at once instead of asking the busy handler, since a connection that
    /// holds a lock waiting for one could deadlock (https://sqlite.org/c3ref/busy_handler.html).
    /// This reads the mode again and tries again, waiting between tries as ``lockWaiting``
    /// allows, until the file is in WAL mode (the other connection may have switched it).
    package func switchToWAL() throws {
        let waiter = BusyWaiter(policy: lockWaiting, path: path)
        var tries: Int32 = 0
        while true {
            do {
                guard try fetchText(sql: "PRAGMA journal_mode") != "wal" else { return }
                // An in-memory or read-only file answers its own mode and stays in it.
                _ = try fetchText(sql: "PRAGMA journal_mode = WAL")
                return
            } catch let error as SQLiteError where error.resultCode == SQLITE_BUSY {
                guard waiter.shouldRetry(count: tries) else { throw error }
                tries += 1
            }
        }
    }
}
