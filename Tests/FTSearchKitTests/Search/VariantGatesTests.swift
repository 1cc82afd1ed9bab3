import FTSearchTestSupport
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit

/// The answers of variant lookups are kept while the index is unchanged, and only then.
@Suite struct VariantGatesTests {
    @Test func anAnswerIsKeptForTheIndexStructureItWasFoundIn() {
        let gates = VariantGates()
        var lookups = 0
        func ask(_ query: String, structure: [UInt8], answer: Bool) -> Bool {
            gates.isHeld(query, in: "people_fts", structure: structure) {
                lookups += 1
                return answer
            }
        }
        #expect(ask("a", structure: [1], answer: false) == false)
        #expect(ask("a", structure: [1], answer: true) == false)
        #expect(lookups == 1)
        // Another index state: asked again, and what was kept for the old one is forgotten.
        #expect(ask("a", structure: [2], answer: true) == true)
        #expect(lookups == 2)
        #expect(ask("b", structure: [2], answer: false) == false)
        #expect(ask("a", structure: [2], answer: false) == true)
        #expect(lookups == 3)
    }

    /// A name written otherwise, added after a search found no record spelled so, is found by
    /// the next search: the kept answer belonged to the index before the write.
    @Test func aWriteToTheIndexMakesTheNextSearchLookAgain() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople([("Ivan", "Petrov", "")])
        let request = SearchRequest(text: "ivanov", kinds: .people)
        #expect(try index.search(request).total == 0)
        #expect(try index.search(request).total == 0)
        try index.importPeople([("Ivan", "Иванов", "")])
        let found = try index.search(request)
        #expect(found.hits.map { $0.record[field: "last_name"] } == ["Иванов"])
        #expect(found == (try index.referenceSearch(request)))
    }
}
