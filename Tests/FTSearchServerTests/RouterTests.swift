import FTSearchTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import FTSearchKit
@testable import FTSearchServer

/// The server's routes in process, through Hummingbird's router test mode (no socket): the
/// request parsing, the error mapping to the native and Meilisearch error shapes, the browser
/// guard, and the Meilisearch translation, beside the end-to-end pytest suite in
/// Tests/ServerTests that runs the binary.
@Suite struct RouterTests {
    let directory: TemporaryDirectory
    let configuration: ServerConfiguration

    init() throws {
        directory = try TemporaryDirectory()
        configuration = ServerConfiguration(databasePath: directory.file("people.sqlite"))
        let index = try SearchIndex(path: configuration.databasePath)
        _ = try index.insert([
            Person(firstName: "Ann", lastName: "Smith", company: "Acme"),
            Person(firstName: "Annabelle", lastName: "Jones", company: "Initech"),
            Person(firstName: "Bob", lastName: "Annan", company: "Acme"),
            Person(firstName: "Zoë", lastName: "Müller", company: "Globex"),
        ])
    }

    /// Runs `test` with a client of the server's router over the test database.
    private func withClient(
        _ configuration: ServerConfiguration? = nil,
        pool: SearchIndexPool? = nil,
        _ test: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let configuration = configuration ?? self.configuration
        let pool = try pool ?? SearchIndexPool(path: configuration.databasePath)
        var logger = Logger(label: "ftsearch-tests")
        logger.logLevel = .critical
        var quiet = configuration
        quiet.logsRequests = false
        let router = SearchServer.makeRouter(
            pool: pool, exports: ExportLane(path: configuration.databasePath, configuration: quiet),
            file: DatabaseFile(path: configuration.databasePath, logger: logger),
            configuration: quiet, logger: logger)
        try await Application(router: router, logger: logger).test(.router, test)
    }

    /// The response's JSON object.
    private static func json(_ response: TestResponse) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
        return try #require(object as? [String: Any])
    }

    /// The `error.code` of a native or Meilisearch error answer (`{"error": {"code"...}}` or
    /// `{"code": ...}`).
    private static func errorCode(_ response: TestResponse) throws -> String? {
        let object = try json(response)
        return (object["error"] as? [String: Any])?["code"] as? String ?? object["code"] as? String
    }

    @Test func aSearchAnswersTheRankedPageAsJSON() async throws {
        try await withClient { client in
            try await client.execute(uri: "/api/search?q=ann&limit=2", method: .get) { response in
                #expect(response.status == .ok)
                let body = try Self.json(response)
                #expect(body["total"] as? Int == 3)
                let results = try #require(body["results"] as? [[String: Any]])
                #expect(results.count == 2)
                // Whole words first: Ann, then Annan or Annabelle by bm25 and name.
                let fields = results.first?["fields"] as? [String: Any]
                #expect(fields?["first_name"] as? String == "Ann")
                #expect(results.first?["kind"] as? String == "people")
                // Where the query matched, for highlighting.
                #expect(results.first?["matches"] != nil)
            }
        }
    }

    @Test(arguments: ["limit=-1", "limit=abc", "kind=plants", "match=sideways", "colour=red"])
    func aBadParameterIsA400InTheNativeErrorShape(query: String) async throws {
        try await withClient { client in
            try await client.execute(uri: "/api/search?q=ann&\(query)", method: .get) { response in
                #expect(response.status == .badRequest, "\(query)")
                let code = try Self.errorCode(response)
                #expect(code == "bad_request", "\(query)")
            }
        }
    }

    @Test func anUnknownRouteIsA404InTheNativeErrorShape() async throws {
        try await withClient { client in
            try await client.execute(uri: "/api/nothing-here", method: .get) { response in
                #expect(response.status == .notFound)
                let code = try Self.errorCode(response)
                #expect(code == "not_found")
            }
        }
    }

    @Test func aChangeFromAnotherSitesPageIsRefusedAndChangesNothing() async throws {
        try await withClient { client in
            try await client.execute(
                uri: "/api/people", method: .post,
                headers: [.origin: "https://evil.example", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"first_name": "Mallory"}"#)
            ) { response in
                #expect(response.status == .forbidden)
                let code = try Self.errorCode(response)
                #expect(code == "cross_origin")
            }
            // A form post, which a page may send without asking the server first.
            try await client.execute(
                uri: "/api/people", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "first_name=Mallory")
            ) { response in
                #expect(response.status == .unsupportedMediaType)
                let code = try Self.errorCode(response)
                #expect(code == "unsupported_media_type")
            }
            try await client.execute(uri: "/api/search?q=mallory", method: .get) { response in
                let body = try Self.json(response)
                #expect(body["total"] as? Int == 0)
            }
        }
    }

    @Test func theHostRuleAnswersForTheServedAddressOnly() {
        let rule = HostRule(configuration: configuration)
        #expect(rule.allows("127.0.0.1:7700"))
        #expect(rule.allows("localhost:7700"))
        #expect(!rule.allows("evil.example:7700"))
        #expect(!rule.allows("evil.example"))
        var allowing = configuration
        allowing.allowedHosts = ["search.internal"]
        #expect(HostRule(configuration: allowing).allows("search.internal:7700"))
    }

    @Test func aMeilisearchSearchIsTranslatedToTheEnginesAndBack() async throws {
        try await withClient { client in
            try await client.execute(
                uri: "/indexes/people/search", method: .post,
                headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"q": "ann", "limit": 1}"#)
            ) { response in
                #expect(response.status == .ok)
                let body = try Self.json(response)
                #expect(body["estimatedTotalHits"] as? Int == 3)
                #expect(body["query"] as? String == "ann")
                let hits = try #require(body["hits"] as? [[String: Any]])
                #expect(hits.count == 1)
                #expect(hits.first?["first_name"] as? String == "Ann")
            }
        }
    }

    @Test func meilisearchErrorsHaveMeilisearchsShapeAndCodes() async throws {
        try await withClient { client in
            try await client.execute(
                uri: "/indexes/people/search", method: .post,
                headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"q": "ann", "limit": -1}"#)
            ) { response in
                #expect(response.status == .badRequest)
                let body = try Self.json(response)
                #expect(body["code"] as? String == "invalid_search_limit")
                #expect(body["type"] as? String == "invalid_request")
                #expect(
                    (body["link"] as? String)?.hasPrefix("https://docs.meilisearch.com") == true)
            }
            try await client.execute(uri: "/indexes/plants/search?q=ann", method: .get) {
                response in
                #expect(response.status == .notFound)
                let code = try Self.errorCode(response)
                #expect(code == "index_not_found")
            }
            try await client.execute(
                uri: "/indexes/people/search", method: .post,
                headers: [.contentType: "application/json"], body: ByteBuffer(string: "{not json")
            ) { response in
                #expect(response.status == .badRequest)
                let code = try Self.errorCode(response)
                #expect(code == "bad_request")
            }
        }
    }
}

/// A search over HTTP is one trip to the connection pool: the search, its highlighting, facets
/// and did-you-mean read one connection (`SearchIndexPool.search(_:then:)`,
/// `reading(indexesFor:_:)`), however many strategy steps a Meilisearch search takes.
extension RouterTests {
    @Test(arguments: [
        ("GET", "/api/search?q=ann", ""),
        (
            "GET",
            "/api/search?q=anm&facets=company&filter=company%20%3D%20Acme&sort=last_name:asc", ""
        ),
        ("POST", "/indexes/people/search", #"{"q": "ann"}"#),
        ("POST", "/indexes/people/search", #"{"q": "ann zzz", "matchingStrategy": "last"}"#),
        (
            "POST", "/indexes/people/search",
            #"{"q": "an", "filter": "company = Acme", "facets": ["company"], "sort": ["last_name:asc"], "attributesToHighlight": ["*"]}"#
        ),
    ])
    func aSearchIsOneTripToThePool(method: String, uri: String, body: String) async throws {
        let pool = try SearchIndexPool(path: configuration.databasePath)
        // The first search of a pool may build what its match mode needs; count the next.
        _ = try await pool.search(SearchRequest(text: "warm"))
        try await withClient(pool: pool) { client in
            let before = pool.tripCount
            try await client.execute(
                uri: uri, method: method == "GET" ? .get : .post,
                headers: [.contentType: "application/json"], body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .ok)
            }
            #expect(pool.tripCount - before == 1)
        }
    }
}
