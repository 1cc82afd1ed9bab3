import Dispatch
import CSQLite
import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

@Suite struct DatabaseTests {
    @Test func bindsAndReadsEveryType() throws {
        let database = try Database(path: ":memory:")
        try database.execute(sql: "CREATE TABLE t(a, b, c, d, e)")
        try database.execute(
            sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
            arguments: ["Zoë", 42, 1.5, nil, DatabaseValue.blob([0, 1, 2])])
        let row = try database.makeStatement(sql: "SELECT a, b, c, d, e FROM t").firstRow {
            [$0.value(at: 0), $0.value(at: 1), $0.value(at: 2), $0.value(at: 3), $0.value(at: 4)]
        }
        #expect(row == [.text("Zoë"), .integer(42), .real(1.5), .null, .blob([0, 1, 2])])
    }

    /// Table definitions kept with a connection follow every schema change: another
    /// connection's at once, and its own write transaction's until it rolls back.
    @Test func tableDefinitionsFollowTheSchema() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("t.sqlite"))
        let other = try Database(path: directory.file("t.sqlite"))
        try database.execute(sql: "PRAGMA journal_mode = WAL; CREATE TABLE a(x)")
        #expect(try database.tableDefinition(named: "a") == "CREATE TABLE a(x)")
        #expect(try database.tableDefinition(named: "b") == nil)
        try other.execute(sql: "CREATE TABLE b(y); DROP TABLE a")
        #expect(try database.tableDefinition(named: "b") == "CREATE TABLE b(y)")
        #expect(try database.tableDefinition(named: "a") == nil)
        try database.execute(sql: "BEGIN IMMEDIATE; CREATE TABLE c(z)")
        #expect(try database.tableDefinition(named: "c") == "CREATE TABLE c(z)")
        try database.execute(sql: "ROLLBACK")
        #expect(try database.tableDefinition(named: "c") == nil)
        try database.execute(sql: "BEGIN; SELECT 1 FROM b")
        try other.execute(sql: "CREATE TABLE d(w)")
        // A read transaction sees the schema of its version.
        #expect(try database.tableDefinition(named: "d") == nil)
        try database.execute(sql: "COMMIT")
        #expect(try database.tableDefinition(named: "d") == "CREATE TABLE d(w)")
    }

    /// A transaction whose statement could not be prepared again after another connection
    /// changed the schema runs again from the start, at most twice more; nothing else does.
    @Test func aTransactionRunsAgainAfterASchemaChangeOnly() throws {
        let database = try Database(path: ":memory:")
        try database.execute(sql: "CREATE TABLE t(x)")
        var runs = 0
        let value = try database.inTransactionRetryingAfterSchemaChange { () throws -> Int in
            runs += 1
            try database.execute(sql: "INSERT INTO t VALUES (1)")
            if runs == 1 {
                throw SQLiteError(extendedResultCode: SQLITE_SCHEMA, message: "schema changed")
            }
            return runs
        }
        #expect(value == 2)
        #expect(try database.fetchInt(sql: "SELECT count(*) FROM t") == 1)
        // A schema change three times over gives up after three runs; another failure at once.
        for (code, expectedRuns) in [(SQLITE_SCHEMA, 3), (SQLITE_BUSY, 1)] {
            runs = 0
            #expect(throws: SQLiteError.self) {
                try database.inTransactionRetryingAfterSchemaChange { () throws -> Void in
                    runs += 1
                    throw SQLiteError(extendedResultCode: code, message: "failed")
                }
            }
            #expect(runs == expectedRuns)
        }
    }

    /// Switching a file to WAL mode while another connection holds its write lock (two
    /// processes opening a new file at once, both switching it) waits for the lock: SQLite
    /// fails the switch at once with `SQLITE_BUSY`, without the busy handler, since the
    /// switching statement holds a read lock of its own.
    @Test(.timeLimit(.minutes(1))) func switchingToWALWaitsForAnotherConnectionsLock() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("new.sqlite")
        let holder = try Database(path: path)
        try holder.execute(sql: "CREATE TABLE t(x)")
        let switching = try Database(path: path, lockWaiting: .atMost(milliseconds: 10_000))
        // Used on the other thread only between `BEGIN` and the signal.
        nonisolated(unsafe) let committing = holder
        /// Holds the write lock for 200 ms from now.
        func holdTheLockAWhile() throws -> DispatchSemaphore {
            try holder.execute(sql: "BEGIN IMMEDIATE")
            let released = DispatchSemaphore(value: 0)
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) {
                try? committing.execute(sql: "COMMIT")
                released.signal()
            }
            return released
        }
        // SQLite's own switch fails though the lock is free 200 ms later.
        let first = try holdTheLockAWhile()
        #expect(throws: SQLiteError.self) {
            _ = try switching.fetchText(sql: "PRAGMA journal_mode = WAL")
        }
        first.wait()
        let second = try holdTheLockAWhile()
        try switching.switchToWAL()
        #expect(try switching.fetchText(sql: "PRAGMA journal_mode") == "wal")
        second.wait()
        // A file in WAL mode already, or in memory, is left as it is.
        try switching.switchToWAL()
        let memory = try Database(path: ":memory:")
        try memory.switchToWAL()
        #expect(try memory.fetchText(sql: "PRAGMA journal_mode") == "memory")
    }

    @Test func bindsEmptyText() throws {
        let database = try Database(path: ":memory:")
        let statement = try database.makeStatement(sql: "SELECT typeof(?1), length(?1)")
        try statement.bind("", at: 1)
        #expect(try statement.step())
        #expect(statement.text(at: 0) == "text")
        #expect(statement.int(at: 1) == 0)
    }

    @Test func errorsCarryCodeMessageAndSQLButNoValues() throws {
        let database = try Database(path: ":memory:")
        try database.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
        try database.execute(sql: "INSERT INTO t VALUES (?)", arguments: [7])
        let error = try #require(throws: SQLiteError.self) {
            try database.execute(sql: "INSERT INTO t VALUES (?)", arguments: [7])
        }
        #expect(error.resultCode == SQLITE_CONSTRAINT)
        #expect(error.extendedResultCode == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
        #expect(
            error.description
                == "SQLite error 1555: UNIQUE constraint failed: t.id - while executing `INSERT INTO t VALUES (?)`"
        )
    }

    @Test func syntaxErrorsAreThrownWhenPreparing() throws {
        let database = try Database(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) {
            try database.makeStatement(sql: "SELEC 1")
        }
        #expect(error.resultCode == SQLITE_ERROR)
        #expect(error.sql == "SELEC 1")
    }

    @Test func transactionRollsBackWhenTheBodyThrows() throws {
        struct Failure: Error {}
        let database = try Database(path: ":memory:")
        try database.execute(sql: "CREATE TABLE t(x)")
        #expect(throws: Failure.self) {
            try database.inTransaction {
                try database.execute(sql: "INSERT INTO t VALUES (1)")
                throw Failure()
            }
        }
        #expect(try database.fetchInt(sql: "SELECT count(*) FROM t") == 0)
        #expect(database.isAutocommit)
        try database.inTransaction { try database.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try database.fetchInt(sql: "SELECT count(*) FROM t") == 1)
    }

    /// A write that need not wait, asked for inside the read transaction of
    /// `readingOneVersion`, is made once that transaction ends; inside another transaction
    /// it is not made.
    @Test func aWriteWithoutWaitingWaitsForTheReadTransaction() throws {
        let directory = try TemporaryDirectory()
        let database = try Database(path: directory.file("t.sqlite"))
        try database.execute(sql: "PRAGMA journal_mode = WAL; CREATE TABLE t(x)")
        let counts = try database.readingOneVersion {
            let before = try database.fetchInt(sql: "SELECT count(*) FROM t")
            database.writeWithoutWaiting {
                try database.execute(sql: "INSERT INTO t VALUES (1)")
            }
            #expect(!database.isAutocommit)
            return (before, try database.fetchInt(sql: "SELECT count(*) FROM t"))
        }
        #expect(counts.0 == 0 && counts.1 == 0)
        #expect(database.isAutocommit)
        #expect(try database.fetchInt(sql: "SELECT count(*) FROM t") == 1)
        try database.inTransaction {
            database.writeWithoutWaiting {
                try database.execute(sql: "INSERT INTO t VALUES (2)")
            }
        }
        #expect(try database.fetchInt(sql: "SELECT count(*) FROM t") == 1)
    }

    /// What is derived from a read may be kept for the rest of readingOneVersion's read
    /// transaction: its number, never one of an earlier transaction, and none outside it or
    /// once it has written.
    @Test func readTransactionsAreNumberedUntilTheyWrite() throws {
        let database = try Database(path: ":memory:")
        try database.execute(sql: "CREATE TABLE t(x)")
        #expect(database.readTransaction == nil)
        let first = try database.readingOneVersion {
            _ = try database.fetchInt(sql: "SELECT count(*) FROM t")
            return database.readTransaction
        }
        let (second, afterWriting) = try database.readingOneVersion {
            let number = database.readTransaction
            try database.execute(sql: "INSERT INTO t VALUES (1)")
            return (number, database.readTransaction)
        }
        #expect(first != nil && second != nil && first != second)
        #expect(afterWriting == nil)
        try database.inTransaction { #expect(database.readTransaction == nil) }
    }

    @Test func cachedStatementsAreReused() throws {
        let database = try Database(path: ":memory:")
        let first = try database.cachedStatement(sql: "SELECT 1")
        #expect(try database.cachedStatement(sql: "SELECT 1") === first)
    }

    @Test func openingAMissingFileReadOnlyFails() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(throws: SQLiteError.self) {
            try Database(path: directory.file("missing.sqlite"), mode: .readOnly)
        }
        #expect(error.resultCode == SQLITE_CANTOPEN)
    }

    @Test func opensPathsWithURICharactersImmutable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("odd ?name#%41.sqlite")
        try Database(path: path).execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('Zoë')")
        let database = try Database(path: path, mode: .immutable)
        #expect(database.isReadOnly)
        #expect(try database.fetchText(sql: "SELECT x FROM t") == "Zoë")
        #expect(throws: SQLiteError.self) { try database.execute(sql: "INSERT INTO t VALUES (1)") }
    }

    @Test func copiesEveryPageIntoAnotherDatabase() throws {
        let source = try Database(path: ":memory:")
        try source.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2)")
        let copy = try Database(path: "")
        try source.copy(into: copy)
        #expect(try copy.fetchInt(sql: "SELECT sum(x) FROM t") == 3)
    }
}
