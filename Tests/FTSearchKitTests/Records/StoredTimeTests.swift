import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// Records' times are stored as integer milliseconds (schema version 7) and read back exactly.
@Suite struct StoredTimeTests {
    /// Times around the epoch, millisecond boundaries, a leap day and the ends of four-digit years.
    static let times = [
        "1970-01-01T00:00:00.000Z", "1969-12-31T23:59:59.999Z", "2026-01-01T12:00:00.001Z",
        "2024-02-29T23:59:59.999Z", "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
        "1900-03-01T08:30:15.250Z",
    ]

    @Test(arguments: times)
    func timesRoundTripThroughStorageAsIntegers(text: String) throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        let time = try #require(Timestamp(iso8601: text))
        let stored = try index.insert(
            Person(firstName: "Ann", createdAt: time, updatedAt: Timestamp(iso8601: "2026-05-05")))
        let id = try #require(stored.id)
        let found = try #require(try index.find(Person.self, id: id))
        #expect(found.createdAt == time)
        #expect(found.createdAt?.description == text)
        let raw = try Database(path: directory.file("test.sqlite"))
        #expect(
            try raw.fetchText(sql: "SELECT typeof(created_at) || typeof(updated_at) FROM people")
                == "integerinteger")
        #expect(
            try raw.fetchInt(sql: "SELECT created_at FROM people")
                == Int(time.millisecondsSinceEpoch))
    }

    @Test func aFreshDatabaseDeclaresIntegerTimes() throws {
        let directory = try TemporaryDirectory()
        _ = try SearchIndex.temporary(in: directory)
        let raw = try Database(path: directory.file("test.sqlite"))
        for table in ["people", "animals"] {
            #expect(
                try raw.fetchText(
                    sql: """
                        SELECT group_concat(type, ' ') FROM pragma_table_info(?1)
                        WHERE name IN ('created_at', 'updated_at')
                        """, arguments: [table]) == "INTEGER INTEGER")
        }
    }

    @Test func upgradingConvertsTextTimesAndKeepsTheIndexes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("old.sqlite")
        let old = try makeVersion6Database(at: path)
        for (offset, text) in Self.times.enumerated() {
            try old.execute(
                sql: """
                    INSERT INTO people(id, first_name, last_name, extra, created_at, updated_at)
                    VALUES (?1, 'Ann', ?2, '{"age":42}', ?3, '2026-02-01T08:00:00.000Z')
                    """, arguments: [offset + 1, "Lee\(offset)", text])
        }
        try old.execute(
            sql: """
                INSERT INTO people(id, first_name, created_at, updated_at)
                VALUES (100, 'Zed', 'yesterday', '');
                INSERT INTO animals(id, name, created_at, updated_at)
                VALUES (7, 'Lion', '2025-07-07T07:07:07.007Z', '2025-07-07T07:07:07.007Z');
                """)
        let index = try SearchIndex(path: path)
        #expect(try index.schemaVersion == Schema.migrator.latestVersion)
        for (offset, text) in Self.times.enumerated() {
            let person = try #require(try index.find(Person.self, id: Int64(offset + 1)))
            #expect(person.createdAt?.description == text)
            #expect(person.updatedAt?.description == "2026-02-01T08:00:00.000Z")
            #expect(person.lastName == "Lee\(offset)")
            #expect(person[extra: "age"] == .number("42"))
        }
        let lion = try #require(try index.find(Animal.self, id: 7))
        #expect(lion.createdAt?.description == "2025-07-07T07:07:07.007Z")
        // Text that is no time stays as it was, and reads as no time, as before.
        let zed = try #require(try index.find(Person.self, id: 100))
        #expect(zed.createdAt == nil && zed.updatedAt == nil)
        let raw = try Database(path: path)
        #expect(
            try raw.fetchText(sql: "SELECT group_concat(DISTINCT typeof(created_at)) FROM people")
                == "integer,text")
        #expect(
            try raw.fetchText(sql: "SELECT created_at FROM people WHERE id = 100") == "yesterday")
        // The indexes and triggers are back: search finds the rows, and a change is indexed.
        #expect(try index.names(for: "lee3") == ["Ann Lee3"])
        #expect(try index.names(for: "", kinds: .people, limit: 2) == ["Zed", "Ann Lee0"])
        try index.update(Person.self, id: 1) { $0.lastName = "Moss" }
        #expect(try index.names(for: "moss") == ["Ann Moss"])
        #expect(try index.names(for: "lion") == ["Lion"])
        #expect(try index.check().isEmpty)
        // The index triggers, the change log's (schema 11), the sort codes' (schemas 12, 13)
        // and the write counts' (schema 17).
        #expect(
            try raw.fetchInt(
                sql:
                    "SELECT count(*) FROM sqlite_schema WHERE tbl_name = 'people' AND type = 'trigger'"
            ) == 12)
    }

    /// A database as schema version 6 left it, the last to store times as ISO 8601 text.
    private func makeVersion6Database(at path: String) throws -> Database {
        let version6 = Schema.migrator.prefix(6)
        let database = try Database(path: path)
        try database.registerSearchExtensions()
        try version6.migrate(database)
        return database
    }
}
