import Foundation
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// Closing checkpoints the WAL unless every change of the connection may wait for the next
/// checkpoint and the WAL is small (``Database/Durability``).
@Suite struct DurabilityTests {
    let directory: TemporaryDirectory
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.file("wal.sqlite")
        try Database(path: path).execute(sql: "PRAGMA journal_mode = WAL; CREATE TABLE t(x)")
    }

    private var walExists: Bool { FileManager.default.fileExists(atPath: path + "-wal") }

    private func rowCount() throws -> Int? {
        try Database(path: path).fetchInt(sql: "SELECT count(*) FROM t")
    }

    @Test func changesThatMayWaitLeaveASmallWALForTheNextCheckpoint() throws {
        #expect(!walExists)
        do {
            let database = try Database(path: path)
            try database.inTransaction(durability: .byNextCheckpoint) {
                try database.execute(sql: "INSERT INTO t VALUES (1)")
            }
        }
        #expect(walExists)
        #expect(try rowCount() == 1)
        // That reader changed nothing, so it checkpointed when it closed.
        #expect(!walExists)
    }

    @Test func aWALPastTheLimitIsCheckpointedOnClose() throws {
        do {
            let database = try Database(path: path)
            try database.inTransaction(durability: .byNextCheckpoint) {
                try database.execute(
                    sql: "INSERT INTO t VALUES (zeroblob(?1))",
                    arguments: [Database.largestWALLeftOnClose])
            }
        }
        #expect(!walExists)
        #expect(try rowCount() == 1)
    }

    @Test(arguments: ["transaction", "autocommit"])
    func anyOtherChangeIsCheckpointedOnClose(by other: String) throws {
        do {
            let database = try Database(path: path)
            try database.inTransaction(durability: .byNextCheckpoint) {
                try database.execute(sql: "INSERT INTO t VALUES (1)")
            }
            if other == "transaction" {
                try database.inTransaction { try database.execute(sql: "INSERT INTO t VALUES (2)") }
            } else {
                try database.execute(sql: "INSERT INTO t VALUES (2)")
            }
        }
        #expect(!walExists)
        let copy = directory.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        #expect(try Database(path: copy).fetchInt(sql: "SELECT count(*) FROM t") == 2)
    }
}
