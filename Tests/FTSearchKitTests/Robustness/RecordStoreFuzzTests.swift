@testable import FTSearchFormats
import Testing
import FTSearchTestSupport

@testable import FTSearchEngine
@testable import FTSearchKit

/// Thousands of random inserts, updates and deletes through the store API, mixed with imports,
/// checked against a model of what the table should hold: every search finds exactly the
/// records whose fields hold the word, and FTS5's integrity check passes at the end. Scale with
/// `FTSEARCH_STRESS_ITERATIONS`, replay with `FTSEARCH_FUZZ_SEED`.
@Suite struct RecordStoreFuzzTests {
    /// Words of four characters, so that a word searched as a prefix matches only itself.
    private static let words = (0..<150).map { "w" + String(1000 + $0).dropFirst() }

    private struct Model {
        var people: [Int64: [String]] = [:]

        /// Every word has four characters and starts with `w`, so the text `w012` in a field is
        /// the word `w012`.
        func ids(holding word: String) -> Set<Int64> {
            Set(people.filter { $0.value.contains { $0.contains(word) } }.keys)
        }
    }

    private static func text(using generator: inout SeededGenerator, allowEmpty: Bool) -> String {
        let count = Int.random(in: (allowEmpty ? 0 : 1)...3, using: &generator)
        return (0..<count).map { _ in generator.pick(words) }.joined(separator: " ")
    }

    private static func fields(using generator: inout SeededGenerator) -> [String] {
        [
            text(using: &generator, allowEmpty: false), text(using: &generator, allowEmpty: true),
            text(using: &generator, allowEmpty: true),
        ]
    }

    @Test func randomChangesKeepTheIndexInStep() throws {
        let seed = TestSettings.seed("RecordStoreFuzzTests", 0)
        var generator = SeededGenerator(seed: seed)
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        var model = Model()
        // Ids are never reused (schema 16): a new record takes the highest id ever stored
        // plus one, deleted or not.
        var highestEverID: Int64 = 0
        for step in 0..<TestSettings.iterations(2500) {
            let ids = Array(model.people.keys)
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<30:
                let batch = (0...Int.random(in: 0..<3, using: &generator)).map { _ in
                    Self.fields(using: &generator)
                }
                let stored = try index.insert(
                    batch.map { Person(firstName: $0[0], lastName: $0[1], company: $0[2]) })
                for person in stored {
                    model.people[person.id!] = [person.firstName, person.lastName, person.company]
                    highestEverID = max(highestEverID, person.id!)
                }
            case 30..<55 where !ids.isEmpty:
                let id = generator.pick(ids)
                let changes = Self.fields(using: &generator)
                let changesFirst = generator.chance(0.5)
                let changesCompany = generator.chance(0.5)
                try index.update(Person.self, id: id) { person in
                    if changesFirst { person.firstName = changes[0] }
                    if changesCompany { person.company = changes[2] }
                    person[extra: "step"] = .number(String(step))
                }
                if changesFirst { model.people[id]![0] = changes[0] }
                if changesCompany { model.people[id]![2] = changes[2] }
            case 55..<75 where !ids.isEmpty:
                var chosen = (0...Int.random(in: 0..<3, using: &generator)).map { _ in
                    generator.pick(ids)
                }
                let withUnknown = generator.chance(0.2)
                if withUnknown { chosen.append(-1) }
                do {
                    try index.delete(Person.self, ids: chosen)
                    #expect(!withUnknown, "seed \(seed), step \(step)")
                    for id in chosen { model.people[id] = nil }
                } catch RecordStoreError.unknownIDs {
                    #expect(withUnknown, "seed \(seed), step \(step)")
                }
            case 75..<88:
                // New records take the highest id ever stored plus one (AUTOINCREMENT).
                var highestID = highestEverID
                var records: [[(String, JSONValue)]] = []
                for _ in 0..<Int.random(in: 1...20, using: &generator) {
                    let fields = Self.fields(using: &generator)
                    var id: Int64?
                    if generator.chance(0.3), !ids.isEmpty { id = generator.pick(ids) }
                    if generator.chance(0.2) { id = Int64.random(in: 1...5000, using: &generator) }
                    records.append(
                        (id.map { [("id", JSONValue.number(String($0)))] } ?? [])
                            + zip(Kind.people.searchableFields, fields).map { ($0, .string($1)) })
                    if id == nil { highestID += 1 }
                    highestID = max(highestID, id ?? highestID)
                    model.people[id ?? highestID] = fields
                }
                try index.importRecords(
                    from: [ImportSource(name: "in.json", reader: RecordList(fields: records))],
                    options: ImportOptions())
                highestEverID = highestID
            default:
                let word = generator.pick(Self.words)
                let found = try index.search(SearchRequest(text: word, kinds: .people, limit: nil))
                #expect(
                    Set(found.hits.compactMap(\.record.id)) == model.ids(holding: word),
                    "seed \(seed), step \(step), word \(word)")
            }
        }
        #expect(try index.check().isEmpty, "seed \(seed)")
        #expect(try index.count(Person.self) == model.people.count)
        let stored = try index.findAll(Person.self)
        #expect(
            stored.map { [$0.firstName, $0.lastName, $0.company] }
                == stored.map { model.people[$0.id!]! })
        for word in Self.words.prefix(40) {
            let found = try index.search(SearchRequest(text: word, kinds: .people, limit: nil))
            #expect(
                Set(found.hits.compactMap(\.record.id)) == model.ids(holding: word),
                "seed \(seed), word \(word)")
        }
    }
}
