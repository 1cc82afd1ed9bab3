@testable import FTSearchFormats
import Testing
import FTSearchTestSupport
import FTSearchSQLite

@testable import FTSearchEngine
@testable import FTSearchKit

/// The full-text index never drifts from the records, whatever ids they have: random sequences
/// of imports with and without ids, extreme ids (0, negative, the smallest and the largest
/// 64-bit values, after which SQLite gives new rows random unused ids), failed imports, and
/// adds, updates and deletes. After every step `check()` is clean and a search equals a model.
/// Scale with `FTSEARCH_STRESS_ITERATIONS`, replay with `FTSEARCH_FUZZ_SEED`.
@Suite struct IndexDriftFuzzTests {
    /// Words of four characters, so that a word searched as a prefix matches only itself.
    private static let words = (0..<60).map { "w" + String(1000 + $0).dropFirst() }
    private static let extremeIDs: [Int64] = [0, -1, -7, Int64.min, Int64.max, Int64.max - 1]

    private static func name(using generator: inout SeededGenerator) -> [String] {
        [
            generator.pick(words),
            Int.random(in: 0..<2, using: &generator) == 0 ? "" : generator.pick(words),
            "",
        ]
    }

    private static func ids(holding word: String, in model: [Int64: [String]]) -> Set<Int64> {
        Set(
            model.filter {
                $0.value.contains { $0.split(separator: " ").contains(Substring(word)) }
            }.keys)
    }

    /// Another program may change a record's id in SQL: every index follows it, and a kept
    /// ranking (the update triggers of the indexes and of the change log fired on the
    /// searchable columns only, and left the record under its old id), in a new database,
    /// with a substring index, and in one that migration 14 brought up to date (records
    /// written at version 13, then moved).
    @Test(arguments: [false, true])
    func anIDChangedInSQLMovesTheRecordInEveryIndex(migrated: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/search.db"
        if migrated {
            let database = try Database(path: path)
            try database.registerSearchExtensions()
            try Schema.migrator.prefix(13).migrate(database)
            try database.execute(
                sql: """
                    INSERT INTO people(first_name, last_name, company, created_at, updated_at)
                    VALUES ('Ann', 'Lee', 'Acme', 0, 0), ('Bo', 'Moss', 'Beta', 0, 0);
                    INSERT INTO animals(name, created_at, updated_at) VALUES ('Rex', 0, 0);
                    """)
        }
        let index = try SearchIndex(path: path)
        if !migrated {
            try index.importPeople([("Ann", "Lee", "Acme"), ("Bo", "Moss", "Beta")])
            try index.importAnimals(["Rex"])
            try index.prepareIndexes(for: .substring, of: .all)
        }
        // A ranking kept before the move learns of it from the change log.
        index.resultCacheMinimumCost = .zero
        #expect(try index.search(SearchRequest(text: "ann")).hits.map(\.record.id) == [1])
        try index.database.execute(sql: "UPDATE people SET id = 70 WHERE id = 1")
        try index.database.execute(sql: "UPDATE animals SET id = 9 WHERE id = 1")
        #expect(try index.check().isEmpty)
        func ids(_ text: String, _ match: MatchMode = .prefix) throws -> [Int64?] {
            try index.search(SearchRequest(text: text, match: match)).hits.map(\.record.id)
        }
        #expect(try ids("ann") == [70])
        #expect(try ids("rex") == [9])
        if !migrated {
            #expect(try ids("nn", .substring) == [70])
            #expect(try ids("ex", .substring) == [9])
        }
    }

    @Test func randomWritesWithExtremeIDsKeepTheIndexExact() throws {
        let seed = TestSettings.seed("IndexDriftFuzzTests", 0)
        var generator = SeededGenerator(seed: seed)
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        var model: [Int64: [String]] = [:]
        // The highest id ever stored: ids are never given twice, so once it is the largest a
        // record without an id is refused.
        var highestGiven: Int64 = 0
        func noteGiven() throws {
            highestGiven = max(
                highestGiven, try index.findAll(Person.self).compactMap(\.id).max() ?? 0)
        }
        for step in 0..<TestSettings.iterations(150) {
            let known = Array(model.keys)
            let context = "seed \(seed), step \(step)"
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<45:
                // An import mixing new records without ids, given ids (extreme ones among
                // them) and ids already stored; a fifth of them fail on a nameless record.
                var records: [[(String, JSONValue)]] = []
                var withID: [Int64: [String]] = [:]
                var withoutID: [[String]] = []
                for _ in 0..<Int.random(in: 1...12, using: &generator) {
                    let fields = Self.name(using: &generator)
                    var id: Int64?
                    switch Int.random(in: 0..<10, using: &generator) {
                    case 0..<2: id = generator.pick(Self.extremeIDs)
                    case 2..<4 where !known.isEmpty: id = generator.pick(known)
                    case 4: id = Int64.random(in: -100...100, using: &generator)
                    default: id = nil
                    }
                    records.append(
                        (id.map { [("id", JSONValue.number(String($0)))] } ?? [])
                            + zip(Kind.people.searchableFields, fields).map { ($0, .string($1)) })
                    if let id { withID[id] = fields } else { withoutID.append(fields) }
                }
                let fails = generator.chance(0.2)
                if fails { records.append([("first_name", .string("")), ("note", .string("x"))]) }
                do {
                    try index.importRecords(
                        from: [ImportSource(name: "in.json", reader: RecordList(fields: records))],
                        options: ImportOptions())
                    #expect(!fails, "\(context)")
                    model.merge(withID) { $1 }
                    // The ids SQLite gave the records without one: the rows that are new.
                    let fresh = try index.findAll(Person.self).filter { model[$0.id!] == nil }
                    #expect(
                        fresh.map { [$0.firstName, $0.lastName, $0.company] }.sorted {
                            $0.joined(separator: "|") < $1.joined(separator: "|")
                        }
                            == withoutID.sorted {
                                $0.joined(separator: "|") < $1.joined(separator: "|")
                            }, "\(context)")
                    for person in fresh {
                        model[person.id!] = [person.firstName, person.lastName, person.company]
                    }
                    try noteGiven()
                } catch is ImportError {
                    #expect(fails, "\(context)")
                } catch is RecordStoreError {
                    // No id left for a record without one: the largest was given before, or
                    // by a record of this import.
                    #expect(
                        !withoutID.isEmpty
                            && (highestGiven == Int64.max
                                || withID.keys.contains { $0 > Int64.max - 16 }),
                        "\(context)")
                }
            case 45..<65:
                let fields = Self.name(using: &generator)
                do {
                    let stored = try index.insert(
                        Person(firstName: fields[0], lastName: fields[1], company: fields[2]))
                    model[stored.id!] = fields
                    try noteGiven()
                } catch is RecordStoreError {
                    #expect(highestGiven == Int64.max, "\(context)")
                }
            case 65..<80 where !known.isEmpty:
                let id = generator.pick(known)
                let fields = Self.name(using: &generator)
                try index.update(Person.self, id: id) {
                    $0.firstName = fields[0]
                    $0.lastName = fields[1]
                }
                model[id] = [fields[0], fields[1], model[id]![2]]
            case 80..<92 where !known.isEmpty:
                let id = generator.pick(known)
                try index.delete(Person.self, ids: [id])
                model[id] = nil
            default:
                break
            }
            #expect(try index.check().isEmpty, "\(context)")
            let word = generator.pick(Self.words)
            let found = try index.search(SearchRequest(text: word, kinds: .people, limit: nil))
            #expect(
                Set(found.hits.compactMap(\.record.id)) == Self.ids(holding: word, in: model),
                "\(context), word \(word)")
        }
        #expect(try index.count(Person.self) == model.count, "seed \(seed)")
        for word in Self.words {
            let found = try index.search(SearchRequest(text: word, kinds: .people, limit: nil))
            #expect(
                Set(found.hits.compactMap(\.record.id)) == Self.ids(holding: word, in: model),
                "seed \(seed), word \(word)")
        }
    }
}
