import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// A request the index cannot answer is refused by every search, before any SQL runs.
@Suite struct SearchRequestValidationTests {
    static let refused: [(SearchRequest, SearchRequestError)] = [
        (SearchRequest(text: "ann", kinds: []), .noKinds),
        (SearchRequest(text: "ann", offset: -1), .negativePage(limit: 20, offset: -1)),
        (SearchRequest(text: "", limit: -5), .negativePage(limit: -5, offset: 0)),
        (
            SearchRequest(text: "ann", kinds: .animals, fields: ["company"]),
            .unknownField("company", validFields: ["name"])
        ),
        (
            SearchRequest(text: "ann", weights: ["company": -1]),
            .invalidWeight(field: "company", weight: -1)
        ),
    ]

    @Test(arguments: refused.indices)
    func everySearchRefusesTheRequest(case number: Int) throws {
        let (request, expected) = Self.refused[number]
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        #expect(throws: expected) { try index.search(request) }
        #expect(throws: expected) { try index.search(request, cancellation: SearchCancellation()) }
    }
}
