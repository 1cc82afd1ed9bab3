#if canImport(Glibc)
    import Glibc
#endif
import FTSearchKit
import Foundation
import Testing
@testable import ftsearch

/// The worker behind the interactive screen: a text's results are posted before the company
/// counts of all its matches, which come after in a second listing of the same results once
/// typing pauses, and never for a text typed on from.
@Suite struct SearchWorkerTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner.withFixtures()
    }

    /// The listings `worker` posts, waiting until the last one is `last` (at most 10 seconds).
    private func listings(
        from worker: SearchWorker, until last: (SearchScreen.Listing) -> Bool
    ) throws -> [SearchScreen.Listing] {
        var listings: [SearchScreen.Listing] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while !(listings.last.map(last) ?? false), ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: worker.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 100)
            for reply in worker.takeReplies() {
                switch reply {
                case .listing(let listing): listings.append(listing)
                case .failure(let error): throw error
                case .suggestion: break
                }
            }
        }
        return listings
    }

    @Test(arguments: ["", "company = 'annex ltd' OR age > 30"])
    func resultsArePostedBeforeTheCompanyCounts(filter: String) throws {
        let index = try SearchIndex(path: ftsearch.databasePath)
        let request = SearchRequest(
            text: "a", limit: 0, filter: filter.isEmpty ? nil : try Filter(parsing: filter),
            facets: ["company"])
        let expected = try index.search(request)
        try #require(expected.total > 0 && !(expected.facets["company"] ?? []).isEmpty)
        let worker = SearchWorker(index: index, kinds: .all, match: .prefix)
        worker.search(
            SearchScreen.Request(
                text: "a", resultLimit: 5, pastSearchLimit: 0, filter: filter))
        let posted = try listings(from: worker) { !$0.companies.isEmpty }
        try #require(posted.count == 2)
        #expect(posted[0].results.count == min(5, expected.total))
        #expect(posted[0].total == expected.total)
        #expect(posted[0].companies.isEmpty)
        #expect(posted[1].results == posted[0].results)
        #expect(posted[1].companies == expected.facets["company"])
    }

    @Test func aNewerTextCancelsTheCountsOfTheLastOne() throws {
        let index = try SearchIndex(path: ftsearch.databasePath)
        let worker = SearchWorker(index: index, kinds: .all, match: .prefix)
        worker.search(SearchScreen.Request(text: "a", resultLimit: 5, pastSearchLimit: 0))
        worker.search(SearchScreen.Request(text: "an", resultLimit: 5, pastSearchLimit: 0))
        let posted = try listings(from: worker) { $0.text == "an" && !$0.companies.isEmpty }
        let countedFirst = posted.filter { $0.text == "a" && !$0.companies.isEmpty }
        #expect(countedFirst.isEmpty)
        let counted = try #require(posted.last)
        #expect(counted.text == "an" && !counted.companies.isEmpty)
    }
}
