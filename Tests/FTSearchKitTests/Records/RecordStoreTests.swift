@testable import FTSearchFormats
import Foundation
import FTSearchTestSupport
import Testing
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

@Suite struct RecordStoreTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
    }

    /// The index reopened with its clock at `now`.
    private func index(at now: String) throws -> SearchIndex {
        try SearchIndex.temporary(in: directory, now: now)
    }

    private func ids(for text: String, kinds: Set<Kind> = .people) throws -> [Int64?] {
        try index.search(SearchRequest(text: text, kinds: kinds)).hits.map(\.record.id)
    }

    @Test func insertedPersonGetsAnIDAndTimestampsAndIsFoundAtOnce() throws {
        var ann = Person(firstName: "Ann", lastName: "Lee", company: "Acme")
        ann[extra: "age"] = .number("42")
        let stored = try index.insert(ann)
        let id = try #require(stored.id)
        let now = try #require(Timestamp(iso8601: "2026-01-01T12:00:00Z"))
        #expect(stored.createdAt == now)
        #expect(stored.updatedAt == now)
        #expect(try ids(for: "lee") == [id])
        #expect(try ids(for: "acm") == [id])
        #expect(try index.find(Person.self, id: id) == stored)
        #expect(try index.find(Person.self, id: id)?[extra: "age"] == .number("42"))
        #expect(try index.check().isEmpty)
    }

    @Test func insertAfterAnImportContinuesItsIDs() throws {
        try index.importPeople([("Ann", "Smith", ""), ("Bob", "Jones", "")])
        let cy = try index.insert(Person(firstName: "Cy"))
        #expect(cy.id == 3)
        #expect(try index.count(Person.self) == 3)
        #expect(try index.names(for: "") == ["Cy", "Bob Jones", "Ann Smith"])
    }

    @Test func batchInsertIsOneTransaction() throws {
        let lion = try index.insert(Animal(name: "Lion"))
        let batch = [Animal(name: "Tiger"), Animal(name: ""), Animal(name: "Bear")]
        #expect(
            throws: RecordStoreError.invalidRecord(
                kind: .animals, position: 1, reason: "an animal needs a name")
        ) {
            try index.insert(batch)
        }
        #expect(try index.findAll(Animal.self) == [lion])
        let stored = try index.insert([Animal(name: "Tiger"), Animal(id: 10, name: "Bear")])
        #expect(stored.map(\.id) == [2, 10])
        #expect(try index.names(for: "", kinds: .animals) == ["Bear", "Lion", "Tiger"])
        #expect(try index.check().isEmpty)
    }

    /// Tiger takes the next id, 2; Bear names 2, so Tiger moves and both are stored.
    @Test func batchInsertNamingAnIDGivenEarlierInTheBatchKeepsBoth() throws {
        try index.insert(Animal(name: "Lion"))
        let stored = try index.insert([Animal(name: "Tiger"), Animal(id: 2, name: "Bear")])
        #expect(stored.map(\.name) == ["Tiger", "Bear"])
        #expect(stored[1].id == 2)
        let tiger = try #require(stored[0].id)
        #expect(tiger != 2)
        #expect(try index.find(Animal.self, id: tiger)?.name == "Tiger")
        #expect(try index.names(for: "", kinds: .animals) == ["Bear", "Lion", "Tiger"])
        #expect(try index.check().isEmpty)
    }

    @Test func insertRefusesATakenID() throws {
        try index.insert(Person(id: 5, firstName: "Ann"))
        #expect(throws: RecordStoreError.idInUse(kind: .people, id: 5)) {
            try index.insert(Person(id: 5, firstName: "Bob"))
        }
        #expect(throws: RecordStoreError.idInUse(kind: .people, id: 9)) {
            try index.insert([Person(id: 9, firstName: "Cy"), Person(id: 9, firstName: "Di")])
        }
        #expect(try index.names(for: "") == ["Ann"])
    }

    @Test(arguments: [
        (Person(lastName: " "), "a person needs a first or last name"),
        (
            Person(firstName: "Ann", extra: [JSONMember(key: "Surname", value: .string("Lee"))]),
            "extra field \"Surname\" would be read as the last name; choose another name"
        ),
        (
            Person(firstName: "Ann", extra: [JSONMember(key: "ID", value: .number("3"))]),
            "extra field \"ID\" would be read as the id; choose another name"
        ),
        (
            Person(firstName: "Ann", extra: [JSONMember(key: "created-at", value: .null)]),
            "extra field \"created-at\" would be read as the creation time; choose another name"
        ),
    ])
    func invalidPersonIsRefusedWithTheReason(person: Person, reason: String) throws {
        #expect(
            throws: RecordStoreError.invalidRecord(kind: .people, position: nil, reason: reason)
        ) {
            try index.insert(person)
        }
        #expect(try index.count(Person.self) == 0)
    }

    @Test func animalMayHaveAnExtraFieldNamedLikeAPersonField() throws {
        let cat = try index.insert(
            Animal(name: "Tom", extra: [JSONMember(key: "first_name", value: .string("Thomas"))]))
        #expect(try index.find(Animal.self, id: cat.id!)?[extra: "first_name"] == .string("Thomas"))
    }

    /// Extra fields another program stored as text that is not UTF-8 read as a `String` reads
    /// them (the bad byte replaced), in a record found by id and in a search's hit; a stored
    /// value that is not an object reads as no extra fields.
    @Test func extraFieldsStoredByAnotherProgramReadAsTheirText() throws {
        let ann = try index.insert(Person(firstName: "Ann"))
        let id = try #require(ann.id)
        // {"city":"Osl\xFF"}
        try index.database.execute(
            sql: """
                UPDATE people SET extra = CAST(X'7B2263697479223A224F736CFF227D' AS TEXT)
                WHERE id = ?1
                """, arguments: [id])
        let city = JSONValue.string("Osl\u{FFFD}")
        #expect(try index.find(Person.self, id: id)?[extra: "city"] == city)
        let hit = try index.search(SearchRequest(text: "ann", kinds: .people)).hits.first
        #expect(hit?.record.extra == [JSONMember(key: "city", value: city)])
        try index.database.execute(
            sql: "UPDATE people SET extra = '[1]' WHERE id = ?1", arguments: [id])
        #expect(try index.find(Person.self, id: id)?.extra == [])
    }

    /// A page of hits reads its records' extra fields with one parser (``RecordRows/Readers``):
    /// each hit still has its own, whatever the records before it held — nested values,
    /// escapes, more or fewer fields, none, or text that does not parse.
    @Test func eachHitOfAPageHasItsOwnExtraFields() throws {
        let extras: [[JSONMember]] = [
            [
                JSONMember(key: "tags", value: .array([.string("a"), .object([])])),
                JSONMember(key: "note", value: .string("line\nbreak \"quoted\" \u{00E9}")),
                JSONMember(key: "age", value: .number("42")),
                JSONMember(key: "ok", value: .bool(true)),
            ],
            [],
            [JSONMember(key: "city", value: .string("Oslo"))],
            [
                JSONMember(
                    key: "nested",
                    value: .object([
                        JSONMember(key: "x", value: .null),
                        JSONMember(key: "quote", value: .string("say \"hi\"")),
                    ]))
            ],
        ]
        var ids: [Int64] = []
        for (number, extra) in extras.enumerated() {
            let person = Person(firstName: "Ann", lastName: "Lee\(number)", extra: extra)
            ids.append(try #require(try index.insert(person).id))
        }
        let broken = try index.insert(Person(firstName: "Ann", lastName: "Broken"))
        try index.database.execute(
            sql: "UPDATE people SET extra = '{\"a\": [1,' WHERE id = ?1", arguments: [broken.id])
        let hits = try index.search(SearchRequest(text: "ann", kinds: .people)).hits
        #expect(hits.count == extras.count + 1)
        for hit in hits {
            let id = try #require(hit.record.id)
            let expected = ids.firstIndex(of: id).map { extras[$0] } ?? []
            #expect(hit.record.extra == expected, "record \(id)")
        }
    }

    @Test func updateChangesOnlyWhatIsGivenAndTheIndexFollows() throws {
        let ann = try index.insert(
            Person(
                firstName: "Ann", lastName: "Lee", company: "Acme",
                extra: [
                    JSONMember(key: "age", value: .number("41")),
                    JSONMember(key: "email", value: .string("ann@acme.example")),
                ]))
        let later = try index(at: "2026-02-01T08:30:00Z")
        let updated = try later.update(Person.self, id: ann.id!) { person in
            person.company = "Initech"
            person[extra: "age"] = .number("42")
            person[extra: "email"] = nil
            person[extra: "tags"] = .array([.string("x")])
            person.createdAt = nil  // ignored
        }
        #expect(updated.firstName == "Ann")
        #expect(updated.lastName == "Lee")
        #expect(updated.company == "Initech")
        #expect(
            updated.extra == [
                JSONMember(key: "age", value: .number("42")),
                JSONMember(key: "tags", value: .array([.string("x")])),
            ])
        #expect(updated.createdAt == ann.createdAt)
        #expect(updated.updatedAt == Timestamp(iso8601: "2026-02-01T08:30:00Z"))
        #expect(try later.find(Person.self, id: ann.id!) == updated)
        #expect(try later.search(SearchRequest(text: "acme")).total == 0)
        #expect(try later.search(SearchRequest(text: "initech")).hits.map(\.record.id) == [ann.id])
        #expect(try later.check().isEmpty)
    }

    @Test func updateOfAWholeModelKeepsItsCreationTime() throws {
        var rex = try index.insert(Animal(name: "Rex"))
        rex.name = "Max"
        rex.createdAt = Timestamp(millisecondsSinceEpoch: 0)
        let later = try index(at: "2026-03-01T00:00:00Z")
        let stored = try later.update(rex)
        #expect(stored.createdAt == Timestamp(iso8601: "2026-01-01T12:00:00Z"))
        #expect(try later.names(for: "", kinds: .animals) == ["Max"])
    }

    @Test func updateOfAnUnknownOrInvalidRecordChangesNothing() throws {
        let ann = try index.insert(Person(firstName: "Ann", lastName: "Lee"))
        #expect(throws: RecordStoreError.unknownIDs(kind: .people, ids: [99])) {
            try index.update(Person.self, id: 99) { $0.firstName = "Bob" }
        }
        #expect(
            throws: RecordStoreError.invalidRecord(
                kind: .people, position: nil, reason: "a person needs a first or last name")
        ) {
            try index.update(Person.self, id: ann.id!) {
                $0.firstName = ""
                $0.lastName = ""
            }
        }
        #expect(try index.find(Person.self, id: ann.id!) == ann)
        #expect(try index.names(for: "ann") == ["Ann Lee"])
    }

    @Test func deleteRemovesEveryIDOrNone() throws {
        let people = try index.insert([
            Person(firstName: "Ann"), Person(firstName: "Bob"), Person(firstName: "Cy"),
        ])
        let ids = people.compactMap(\.id)
        #expect(throws: RecordStoreError.unknownIDs(kind: .people, ids: [40, 41])) {
            try index.delete(Person.self, ids: [ids[0], 40, ids[1], 41])
        }
        #expect(try index.count(Person.self) == 3)
        #expect(try index.delete(Person.self, ids: [ids[0], ids[1], ids[0]]) == 2)
        #expect(try index.names(for: "ann").isEmpty)
        #expect(try index.names(for: "") == ["Cy"])
        #expect(try index.find(Person.self, id: ids[0]) == nil)
        #expect(try index.check().isEmpty)
    }

    @Test func deleteOfAPersonLeavesTheAnimalWithTheSameID() throws {
        let ann = try index.insert(Person(firstName: "Ann"))
        let rex = try index.insert(Animal(name: "Rex"))
        #expect(ann.id == rex.id)
        try index.delete(Person.self, ids: [ann.id!])
        #expect(try index.find(Animal.self, id: rex.id!) == rex)
    }

    @Test func findAllPagesInIDOrder() throws {
        try index.insert((1...7).map { Person(id: Int64(8 - $0) * 10, firstName: "P\($0)") })
        let all = try index.findAll(Person.self)
        #expect(all.map(\.id) == [10, 20, 30, 40, 50, 60, 70])
        var pages: [[Int64?]] = []
        var page = try index.findAll(Person.self, limit: 3)
        while !page.isEmpty {
            pages.append(page.map(\.id))
            page = try index.findAll(Person.self, after: page.last?.id, limit: 3)
        }
        #expect(pages == [[10, 20, 30], [40, 50, 60], [70]])
        #expect(try index.findAll(Person.self, after: 65) == [all[6]])
        #expect(try index.count(Person.self) == 7)
        #expect(try index.count(Animal.self) == 0)
    }

    @Test func modelsEncodeAndDecodeWithCodable() throws {
        let ann = try index.insert(
            Person(
                firstName: "Ann", lastName: "Lee",
                extra: [
                    JSONMember(
                        key: "tags",
                        value: .array([.string("a"), .bool(true), .null, .number("42")]))
                ]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(ann), as: UTF8.self)
        #expect(
            text
                == #"{"company":"","created_at":"2026-01-01T12:00:00.000Z","extra":{"tags":["a",true,null,42]},"first_name":"Ann","id":1,"last_name":"Lee","updated_at":"2026-01-01T12:00:00.000Z"}"#
        )
        #expect(try JSONDecoder().decode(Person.self, from: Data(text.utf8)) == ann)
    }
}
