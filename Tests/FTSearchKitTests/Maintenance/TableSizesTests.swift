import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// `SearchIndex.tableSizes(of:)`: the pages of one kind's tables, and only that kind's.
@Suite struct TableSizesTests {
    @Test func aKindsTablesAndNoOthers() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex(path: directory.file("db.sqlite"))
        _ = try index.insert(Person(firstName: "Ann", lastName: "Smith", company: "Annex"))
        let people = try index.tableSizes(of: .people)
        let names = people.map(\.name)
        #expect(names.contains("people"))
        #expect(names.allSatisfy { $0 == "people" || $0.hasPrefix("people_") })
        #expect(people.allSatisfy { $0.bytes > 0 && $0.usedBytes > 0 && $0.usedBytes <= $0.bytes })
        let animals = try index.tableSizes(of: .animals)
        #expect(animals.map(\.name).allSatisfy { $0 == "animals" || $0.hasPrefix("animals_") })
        #expect(Set(names).isDisjoint(with: animals.map(\.name)))
        let total = try index.statistics().sizeInBytes
        #expect((people + animals).reduce(0) { $0 + $1.bytes } < total)
    }

    @Test func growsWithTheRecords() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex(path: directory.file("db.sqlite"))
        let before = try index.tableSizes(of: .animals).reduce(0) { $0 + $1.usedBytes }
        for number in 0..<500 {
            _ = try index.insert(Animal(name: "Animal number \(number) of a long list"))
        }
        let after = try index.tableSizes(of: .animals).reduce(0) { $0 + $1.usedBytes }
        #expect(after > before)
    }
}
