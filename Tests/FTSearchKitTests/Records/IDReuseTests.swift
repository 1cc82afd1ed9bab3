import FTSearchSQLite
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// An id is never given twice (migration 16, AUTOINCREMENT): a record added after the one with
/// the highest id was deleted gets a new id, so a client holding the deleted id cannot change
/// another record with it.
@Suite struct IDReuseTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
    }

    @Test func aRecordAddedAfterTheHighestWasDeletedGetsANewID() throws {
        try index.importPeople([("Ann", "Smith", ""), ("Bob", "Jones", ""), ("Cy", "Young", "")])
        #expect(try index.delete(Person.self, ids: [3]) == 1)
        let dee = try index.insert(Person(firstName: "Dee"))
        #expect(dee.id == 4)
        #expect(try index.find(Person.self, id: 3) == nil)
        let rex = try index.insert(Animal(name: "Rex"))
        _ = try index.delete(Animal.self, ids: [try #require(rex.id)])
        #expect(try index.insert(Animal(name: "Tom")).id == rex.id.map { $0 + 1 })
        #expect(try index.check().isEmpty)
    }

    @Test func importsContinueAboveDeletedAndReplacedIDs() throws {
        try index.importPeople([("Ann", "Smith", ""), ("Bob", "Jones", "")])
        _ = try index.delete(Person.self, ids: [2])
        try index.importPeople([("Cy", "Young", "")])
        #expect(try index.findAll(Person.self).map(\.id) == [1, 3])
        // A replacing import empties the kind, and its records still get ids never given.
        try index.importPeople(
            [("Dee", "Lane", "")], options: ImportOptions(kind: .people, replace: true))
        #expect(try index.findAll(Person.self).map(\.id) == [4])
        #expect(try index.names(for: "dee") == ["Dee Lane"])
        #expect(try index.check().isEmpty)
    }

    @Test func aDatabaseOfVersion15KeepsItsIDsAndContinuesAboveTheHighest() throws {
        let path = directory.file("v15.sqlite")
        do {
            let database = try Database(path: path)
            try database.registerSearchExtensions()
            try Schema.migrator.prefix(15).migrate(database)
            for name in ["Ann", "Bob", "Cy"] {
                try database.execute(
                    sql: "INSERT INTO people(first_name, created_at, updated_at) VALUES (?1, 0, 0)",
                    arguments: [name])
            }
            try database.execute(sql: "DELETE FROM people WHERE id = 2")
        }
        let migrated = try SearchIndex(path: path)
        #expect(try migrated.schemaVersion == Schema.migrator.latestVersion)
        #expect(try migrated.findAll(Person.self).map(\.firstName) == ["Ann", "Cy"])
        #expect(try migrated.findAll(Person.self).map(\.id) == [1, 3])
        #expect(try migrated.names(for: "cy") == ["Cy"])
        _ = try migrated.delete(Person.self, ids: [3])
        #expect(try migrated.insert(Person(firstName: "Dee")).id == 4)
        #expect(try migrated.check().isEmpty)
    }
}
