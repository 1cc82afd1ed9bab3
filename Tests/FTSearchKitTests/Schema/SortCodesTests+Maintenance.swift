@testable import FTSearchFormats
import FTSearchSQLite
import FTSearchTestSupport
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit

/// The sort codes through `check`, `rebuild`, migrations, renames and imports (see
/// ``SortCodesTests``).
extension SortCodesTests {
    @Test func checkFindsCodesOutOfStepAndRebuildMendsThem() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople([("Ann", "Smith", "Acme"), ("Anna", "Bo", "Acme")])
        #expect(try index.check().isEmpty)
        try index.database.execute(sql: "UPDATE people_sort_codes SET codes = zeroblob(1536)")
        #expect(
            try index.check() == [.sortCodesMismatch(table: "people_sort_codes", records: "people")]
        )
        try index.rebuild()
        #expect(try index.check().isEmpty)
        // A code where no record is (as a delete without the triggers would leave it).
        try index.database.execute(
            sql: "UPDATE people_sort_codes SET codes = CAST(substr(codes, 1, 30) || X'616E6E' "
                + "|| substr(codes, 34) AS BLOB)")
        #expect(
            try index.check() == [.sortCodesMismatch(table: "people_sort_codes", records: "people")]
        )
        try index.rebuild()
        #expect(try index.check().isEmpty)
    }

    /// Migration 13 zeroes the codes a delete left behind before it and gives a record whose
    /// sort name is empty (an animal without a name, written by another program) code 1:
    /// after it, the codes tell exactly which ids have a record.
    @Test func migrationThirteenLeavesCodesOnlyWhereRecordsAre() throws {
        let database = try Database(path: ":memory:")
        try database.registerSearchExtensions()
        try Schema.migrator.prefix(12).migrate(database)
        for (id, last) in [(1, "Lee"), (2, "Moss"), (600, "Bo")] {
            try database.execute(
                sql: """
                    INSERT INTO people(id, first_name, last_name, company, created_at, updated_at)
                    VALUES (?1, '', ?2, 'Acme', 0, 0)
                    """, arguments: [Int64(id), last])
        }
        try database.execute(
            sql: "INSERT INTO animals(id, name, created_at, updated_at) VALUES (5, '', 0, 0)")
        // As version 12 wrote it: an empty name's code was 0.
        try database.execute(sql: "UPDATE animals_sort_codes SET codes = zeroblob(1536)")
        try database.execute(sql: "DELETE FROM people WHERE id IN (2, 600)")
        let (people, animals) = (SortCodes(of: .people), SortCodes(of: .animals))
        func records(_ codes: SortCodes) throws -> [(rowid: Int64, code: UInt32)] {
            var records: [(rowid: Int64, code: UInt32)] = []
            try codes.everyRecord(in: database).forEach { records.append(($0, $1)) }
            return records
        }
        #expect(try records(people).map(\.rowid) == [1, 2, 600])
        try Schema.migrator.migrate(database)
        #expect(try people.isConsistent(in: database))
        #expect(try animals.isConsistent(in: database))
        #expect(try records(people).map(\.rowid) == [1])
        let animal = try records(animals)
        #expect(animal.map(\.rowid) == [5] && animal.map(\.code) == [1])
        // An id changed in SQL moves the code; a delete zeroes it.
        try database.execute(sql: "UPDATE people SET id = 700 WHERE id = 1")
        #expect(try records(people).map(\.rowid) == [700])
        try database.execute(sql: "DELETE FROM people WHERE id = 700")
        #expect(try records(people).isEmpty)
    }

    /// A connection keeps the code blocks it read, until the records' names change: by
    /// another connection's commit, and by a `rebuild` (which starts FTS5's structure record
    /// over: without ftsearch's settings around it, a rebuild, a rename and a second rebuild
    /// gave the index back the very record it had after the first).
    @Test func keptCodesGiveWayToRenamesAndRebuilds() throws {
        let directory = try TemporaryDirectory()
        let writer = try SearchIndex.temporary(in: directory)
        try writer.importPeople((0..<3000).map { ("Ann", "Lee \($0)", "") })
        try writer.rebuild()
        let reader = try SearchIndex(path: writer.path)
        func code(of id: Int64) throws -> UInt32? {
            try reader.database.readingOneVersion {
                RowBlockReader(database: reader.database, blocks: SortCodes(of: .people).blocks)
                    .code(ofRow: id)
            }
        }
        let lee = SortCodeMap.empty.code(ofKey: Array("lee".utf8))
        let zed = SortCodeMap.empty.code(ofKey: Array("zed".utf8))
        #expect(try code(of: 2501) == lee)  // kept now
        try writer.update(Person.self, id: 2501) { $0.lastName = "Zed" }
        try writer.rebuild()
        #expect(try code(of: 2501) == zed)
        try writer.update(Person.self, id: 2501) { $0.lastName = "Lee" }
        #expect(try code(of: 2501) == lee)
        // Codes mended by `rebuild` are read again too.
        try writer.database.execute(sql: "UPDATE people_sort_codes SET codes = zeroblob(1536)")
        #expect(try code(of: 2501) == lee)
        try writer.rebuild()
        #expect(try code(of: 2501) == lee)
        let request = SearchRequest(text: "ann", kinds: .people, limit: 20, offset: 1000)
        #expect(try reader.search(request) == (try reader.referenceSearch(request)))
    }

    /// A reader whose block another reader on its connection dropped from the kept blocks
    /// (their memory freed) loads it again, and does not read the freed memory: here the
    /// table itself has changed since, so only a reader that loads again reads zeros.
    @Test func aReaderLoadsAgainABlockItsConnectionDropped() throws {
        let directory = try TemporaryDirectory()
        let writer = try SearchIndex.temporary(in: directory)
        try writer.importPeople((0..<3000).map { ("Ann", "Lee \($0)", "") })
        let reader = try SearchIndex(path: writer.path)
        let blocks = SortCodes(of: .people).blocks
        let first = RowBlockReader(database: reader.database, blocks: blocks)
        #expect(try reader.database.readingOneVersion { first.code(ofRow: 2501) } == 0x6C_6565)
        first.close()  // its handle would keep the connection on this version
        try writer.update(Person.self, id: 2501) { $0.lastName = "Zed" }
        let second = RowBlockReader(database: reader.database, blocks: blocks)
        #expect(try reader.database.readingOneVersion { second.code(ofRow: 2501) } == 0x7A_6564)
        second.close()
        try writer.database.execute(sql: "UPDATE people_sort_codes SET codes = zeroblob(1536)")
        #expect(first.code(ofRow: 2501) == 0)
        first.close()
    }

    /// An import drops the triggers and puts them back: as migrations 12 to 14 made them.
    @Test func anImportPutsBackTheTriggersTheMigrationMade() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        func triggers() throws -> [String] {
            var sql: [String] = []
            try index.database.makeStatement(
                sql:
                    "SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name LIKE '%sort_code%' ORDER BY name"
            ).forEachRow { sql.append($0.text(at: 0) ?? "") }
            return sql
        }
        let made = try triggers()
        #expect(made.count == 6)
        try index.importPeople([("Ann", "Lee", "")])
        try index.importAnimals(["Rex"])
        #expect(try triggers() == made)
    }
}
