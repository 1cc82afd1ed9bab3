import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit

/// The fields kept in memory for filters follow every write: a single-record insert, update
/// and delete (the triggers count them) and a bulk import (which drops the triggers).
@Suite struct FieldTableCacheTests {
    @Test func filtersSeeEveryKindOfWrite() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople([("Ann", "Lee", "Acme"), ("Bo", "Ek", "Initech")])
        let acme = try Filter(parsing: "company = acme OR city = Oslo")
        func names() throws -> [String] {
            try index.search(SearchRequest(text: "", filter: acme)).hits.map(\.record.displayName)
        }
        #expect(try names() == ["Ann Lee"])
        var bo = try #require(try index.findAll(Person.self).first { $0.firstName == "Bo" })
        bo[extra: "city"] = .string("Oslo")
        _ = try index.update(bo)
        #expect(try names() == ["Bo Ek", "Ann Lee"])
        _ = try index.insert(Person(firstName: "Cy", lastName: "Acme", company: "ACME"))
        #expect(try names() == ["Cy Acme", "Bo Ek", "Ann Lee"])
        let ann = try #require(try index.findAll(Person.self).first { $0.firstName == "Ann" })
        #expect(try index.delete(Person.self, ids: [ann.id!]) == 1)
        #expect(try names() == ["Cy Acme", "Bo Ek"])
        try index.importPeople([("Di", "Acme", "Acme")])
        #expect(try names() == ["Cy Acme", "Di Acme", "Bo Ek"])
    }
}
