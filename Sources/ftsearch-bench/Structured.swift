@_spi(Benchmarking) import FTSearchKit

// `ftsearch-bench structured DB QUERIES.tsv COMPANIES.txt`: issue 47's rows, in process, warm
// (each search run once first; the first search of a process that names a field reads its
// column into memory: company, tags and last_name are timed on their own as `fields load`).
//
//   filter-empty filtered    `company = X` with empty text, X from COMPANIES.txt
//   prefixN filtered         an N-letter prefix with `company = X` (X the company of the text's
//   prefixN unfiltered       first match), and the same prefix without the filter: its kept
//   prefixN unfiltered-uncached  ranking, and ranked afresh (as a filtered search always is)
//   fields stored            the same load in a new connection: the columns kept on disk
//   facets1 company,tags-afresh  a one-letter prefix with facets of company and tags, first
//   facets1 company,tags     and again (its matches kept)
//   sort1 last_name-afresh   a one-letter prefix sorted by last_name, first
//   sort1 last_name          and again (its page kept)
//   sort1 relevance          the same by relevance: the kept ranking (as any repeated search)
//   sort1 relevance-uncached and ranked afresh (the first search of a text after a change)
//
// Prints "class plan p50_ms p90_ms p99_ms count" rows.
func benchmarkStructuredSearch(
    _ index: SearchIndex, path: String, queries file: String, companies companiesFile: String
) throws {
    let clock = ContinuousClock()
    var classes: [String: [String]] = [:]
    for line in lines(of: file) {
        let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
        guard parts.count == 2, classes[parts[0], default: []].count < 100 else { continue }
        classes[parts[0], default: []].append(parts[1])
    }
    let companies = Array(lines(of: companiesFile).prefix(100))
    func quoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
    func time(_ request: SearchRequest) throws -> Double {
        _ = try index.search(request)
        return milliseconds(try clock.measure { _ = try index.search(request) })
    }
    // The columns these rows read: company and last_name (searchable), tags (extra).
    let load = try clock.measure {
        _ = try index.search(
            SearchRequest(
                text: "", kinds: .people, limit: 1, sort: [SortKey(field: "last_name")],
                facets: ["company", "tags"]))
    }
    print("fields\tload\t\(format(milliseconds(load)))\t0\t0\t1")
    // The same in another process (a new connection, nothing in memory): the columns the
    // first read are kept on disk (field_columns).
    let stored = try clock.measure {
        _ = try SearchIndex(path: path).search(
            SearchRequest(
                text: "", kinds: .people, limit: 1, sort: [SortKey(field: "last_name")],
                facets: ["company", "tags"]))
    }
    print("fields\tstored\t\(format(milliseconds(stored)))\t0\t0\t1")
    printRow(
        "filter-empty", "filtered",
        try companies.map { company in
            try time(
                SearchRequest(
                    text: "", kinds: .people,
                    filter: try Filter(parsing: "company = \(quoted(company))")))
        })
    for name in ["prefix1", "prefix2", "prefix3"] {
        var filtered: [Double] = []
        var unfiltered: [Double] = []
        var uncached: [Double] = []
        for text in classes[name] ?? [] {
            let plain = SearchRequest(text: text, kinds: .people, limit: 20)
            guard let company = try index.search(plain).hits.first?.record[field: "company"]
            else { continue }
            var request = plain
            request.filter = try Filter(parsing: "company = \(quoted(company))")
            filtered.append(try time(request))
            unfiltered.append(try time(plain))
            index.keepsExpensiveRankings = false
            uncached.append(try time(plain))
            index.keepsExpensiveRankings = true
        }
        printRow(name, "filtered", filtered)
        printRow(name, "unfiltered", unfiltered)
        printRow(name, "unfiltered-uncached", uncached)
    }
    let oneLetter = classes["prefix1"] ?? []
    // The first search of a text collects its matches (afresh); the same again counts over
    // the matches kept, or (sorted) is served its kept page (kept). Each text in a connection
    // of its own (its columns read first, untimed), so that no text finds the matches of the
    // same letter searched before, and its first search reads no page kept in the database
    // (the texts repeat letters): that one keeps nothing, the untimed one after it does.
    func firstAndAgain(_ request: SearchRequest) throws -> (first: Double, again: Double) {
        let fresh = try SearchIndex(path: path)
        _ = try fresh.search(
            SearchRequest(
                text: "", kinds: .people, limit: 1, sort: [SortKey(field: "last_name")],
                facets: ["company", "tags"]))
        fresh.keepsExpensiveRankings = false
        let first = milliseconds(try clock.measure { _ = try fresh.search(request) })
        fresh.keepsExpensiveRankings = true
        _ = try fresh.search(request)
        return (first, milliseconds(try clock.measure { _ = try fresh.search(request) }))
    }
    let facets = try oneLetter.map {
        try firstAndAgain(
            SearchRequest(text: $0, kinds: .people, limit: 20, facets: ["company", "tags"]))
    }
    printRow("facets1", "company,tags-afresh", facets.map(\.first))
    printRow("facets1", "company,tags", facets.map(\.again))
    var sortedAfresh: [Double] = []
    var sorted: [Double] = []
    var relevance: [Double] = []
    var uncached: [Double] = []
    for text in oneLetter {
        let plain = SearchRequest(text: text, kinds: .people, limit: 20)
        var request = plain
        request.sort = [SortKey(field: "last_name")]
        let (first, again) = try firstAndAgain(request)
        sortedAfresh.append(first)
        sorted.append(again)
        relevance.append(try time(plain))
        index.keepsExpensiveRankings = false
        uncached.append(try time(plain))
        index.keepsExpensiveRankings = true
    }
    printRow("sort1", "last_name-afresh", sortedAfresh)
    printRow("sort1", "last_name", sorted)
    printRow("sort1", "relevance", relevance)
    printRow("sort1", "relevance-uncached", uncached)
}
