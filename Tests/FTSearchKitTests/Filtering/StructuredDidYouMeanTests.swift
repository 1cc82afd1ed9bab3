import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit

/// A search that filters, sorts or counts facets and finds nothing suggests a correction as a
/// plain search does, one that finds something under the same filter.
@Suite struct StructuredDidYouMeanTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        try index.importPeople([
            ("Joanna", "Lee", "Acme"), ("Joanna", "Berg", "Initech"), ("Rosa", "Smith", "Globex"),
        ])
    }

    private func didYouMean(
        _ text: String, filter: String? = nil, sort: String? = nil, facets: [String] = []
    )
        throws -> SearchResults
    {
        try index.search(
            SearchRequest(
                text: text, kinds: .people, filter: try filter.map { try Filter(parsing: $0) },
                sort: sort.map { [SortKey(field: $0)] } ?? [], facets: facets))
    }

    @Test(
        arguments: [
            (filter: "company = acme", sort: nil, facets: []),
            (filter: nil, sort: "last_name", facets: []),
            (filter: nil, sort: nil, facets: ["company"]),
            (filter: "company IN [acme, initech]", sort: "last_name", facets: ["company"]),
        ] as [(String?, String?, [String])])
    func aStructuredSearchThatFindsNothingSuggestsACorrection(
        filter: String?, sort: String?, facets: [String]
    ) throws {
        let results = try didYouMean("joanan", filter: filter, sort: sort, facets: facets)
        #expect(results.total == 0)
        #expect(results.didYouMean == "joanna")
        let counted = results.facets.values.reduce(0) { $0 + $1.count }
        #expect(counted == 0)
    }

    @Test func theCorrectionMustFindSomethingUnderTheFilter() throws {
        // Nobody called Joanna works at Globex: correcting the text would still find nothing.
        #expect(try didYouMean("joanan", filter: "company = globex").didYouMean == nil)
        #expect(try didYouMean("rosa smoth", filter: "company = globex").didYouMean == "rosa smith")
        // Every word starts an indexed word: the filter, not a typo, found nothing.
        #expect(try didYouMean("joanna", filter: "company = globex").didYouMean == nil)
        #expect(try didYouMean("joanna", filter: "company = acme").didYouMean == nil)
    }
}
