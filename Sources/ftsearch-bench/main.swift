// The in-process half of scripts/bench; not a product. Prints tab-separated measurements.
//
//   ftsearch-bench latency DB QUERIES.tsv [MAX-PER-CLASS [MAX-ONE-LETTER]]
//       For each query (lines "class<TAB>text"): the default ranked plan ("fast": its ranking
//       kept by the warm-up run when it was expensive, as for any repeated search), the same
//       without kept rankings ("uncached": the first search of a text after a change), and
//       the reference plan ("naive": bm25 over every match), warm (each query ranked once
//       first, as Tantivy's side searches each once before timing it), alternated, top 20
//       with total. Checks that fast, uncached and naive give the same results. Prints "class plan p50_ms
//       p90_ms p99_ms count" rows. With FTSEARCH_BENCH_CURSOR set, also "cursor": the first
//       search ranked through FTS5's cursor instead of the doclist reader, timed alternately.
//       With FTSEARCH_BENCH_FAST_ONLY set, skips the reference plan (and the check); with
//       FTSEARCH_BENCH_REPEAT=N, runs each first search N more times, untimed: a profiler
//       then sees first searches, not their warm-ups. With FTSEARCH_BENCH_WITHOUT=M[,M...],
//       searches without those mechanisms (see Ablation), for a profiler to compare.
//   ftsearch-bench ablation DB QUERIES.tsv [MAX-PER-CLASS]
//       First searches (no kept rankings) of each class, and fuzzy searches of the prefix3
//       texts ("fuzzy3"), with every mechanism of the pipeline, then without each in turn
//       (see Ablation), alternated query by query; checks that the results are the same.
//       Prints "class without-MECHANISM p50_ms p90_ms p99_ms count" rows ("without-none":
//       everything in use).
//   ftsearch-bench forgiving DB QUERIES.tsv
//       Forgiving search (lines "class<TAB>text"), without kept rankings: substring3 against
//       the naive LIKE plan, substring1/substring2/fuzzy against prefix matching of the same
//       text, didyoumean alone.
//       Prints "class plan p50_ms p90_ms p99_ms count" rows.
//   ftsearch-bench substring-build DB
//       Drops the substring indexes and builds them as the first substring search does;
//       prints "substring-build SECONDS".
//   ftsearch-bench forget-rankings DB
//       Drops the rankings searches kept, as the first session after a change finds them.
//   ftsearch-bench naive-sql WORD
//       Prints the naive SQL of a prefix search for WORD, for the sqlite3 CLI on a plain FTS5
//       table (the whole-process floor of scripts/bench).
//   ftsearch-bench suggest-sql PREFIX
//       Prints the reference query of `suggest PREFIX` (by frequency, 10 at most) for the sqlite3
//       CLI to run on a history file.
//   ftsearch-bench history-file DB
//       Prints the path of the file DB's history is kept in.
//   ftsearch-bench structured DB QUERIES.tsv COMPANIES.txt
//       Filters, facets and sort (see Structured.swift); prints "class plan p50 p90 p99 count".
//   ftsearch-bench history DB HISTORY.txt
//       Records every line as a search in the history; prints "history record p50 p90 p99 count".
@_spi(Benchmarking) import FTSearchKit
import FTSearchSQLite

#if canImport(Glibc)
    import Glibc
#endif

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p * Double(sorted.count - 1)).rounded())
    return sorted[rank]
}

func lines(of path: String) -> [String] {
    guard let file = fopen(path, "r") else { fatalError("cannot read \(path)") }
    defer { fclose(file) }
    var result: [String] = []
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    while getline(&line, &capacity, file) > 0 {
        var text = String(cString: line!)
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        if !text.isEmpty { result.append(text) }
    }
    free(line)
    return result
}

/// The queries of a file of lines "class<TAB>text", by class in the file's order, at most
/// `maximum` a class (`maximumOneLetter` of prefix1).
func queriesByClass(in path: String, maximum: Int, maximumOneLetter: Int)
    -> (classes: [String], queries: [String: [String]])
{
    var classes: [String] = []
    var queries: [String: [String]] = [:]
    for line in lines(of: path) {
        let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { continue }
        if queries[parts[0]] == nil { classes.append(parts[0]) }
        let cap = parts[0] == "prefix1" ? maximumOneLetter : maximum
        if queries[parts[0], default: []].count < cap {
            queries[parts[0], default: []].append(parts[1])
        }
    }
    return (classes, queries)
}

func printError(_ text: String) {
    _ = text.withCString { write(2, $0, strlen($0)) }
}

func format(_ value: Double) -> String {
    let scaled = (value * 1000).rounded() / 1000
    return "\(scaled)"
}

/// Times `run` on each query, warm.
func timings(of queries: [String], _ run: (String) throws -> Void) throws -> [Double] {
    let clock = ContinuousClock()
    return try queries.map { text in
        try run(text)  // warm the pages this query reads
        return milliseconds(try clock.measure { try run(text) })
    }
}

func printRow(_ name: String, _ plan: String, _ values: [Double]) {
    print(
        [
            name, plan, format(percentile(values, 0.5)), format(percentile(values, 0.9)),
            format(percentile(values, 0.99)), String(values.count),
        ].joined(separator: "\t"))
}

/// Issue 20's rows after writes. Twenty writes first, untimed, take the merges FTS5 owes
/// after a bulk import. Then the writes alone (`add`, `update`, `delete` of a random person in
/// turn): 25 × `writes` with the change log's triggers dropped, as ftsearch wrote before the
/// log, and 25 × `writes` with them, in alternating blocks of 50. Then every 1- and 2-letter
/// query of `file` is searched once (keeping its ranking), and `writes` times a write is
/// followed by a timed search of one of those queries, compared with the reference plan every
/// tenth time. Prints the rows `after-write search`, `write add|update|delete|all`,
/// `write-without-log add|update|delete|all`, after each write row `slow <row> N` (N of its
/// writes took over 5 ms), and `mismatches`.
func benchmarkSearchesAfterWrites(_ index: SearchIndex, queries file: String, writes: Int) throws {
    let texts = lines(of: file).compactMap { line -> String? in
        let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
        return parts.count == 2 && ["prefix1", "prefix2"].contains(parts[0]) ? parts[1] : nil
    }
    let requests = texts.map { SearchRequest(text: $0, kinds: .people, limit: 20) }
    var random = SystemRandomNumberGenerator()
    let highest = Int64(max(1, try index.statistics().people))
    let names = ["Ann", "Bob", "Carla", "Dmitri", "Eve", "Ørjan", "Zoë", "Mia", "Sam"]
    let clock = ContinuousClock()
    var timings: [String: [Double]] = [:]
    var number = 0
    /// One write, timed under `row` (nil: untimed).
    func write(timedAs row: String?) throws {
        let name = names.randomElement(using: &random)!
        let kind = ["add", "update", "delete"][number % 3]
        number += 1
        var elapsed: Duration?
        while elapsed == nil {
            let id = Int64.random(in: 1...highest, using: &random)
            do {
                elapsed = try clock.measure {
                    switch kind {
                    case "add":
                        _ = try index.insert(
                            Person(firstName: name, lastName: "Bench", company: "Acme"))
                    case "update": _ = try index.update(Person.self, id: id) { $0.firstName = name }
                    default: _ = try index.delete(Person.self, ids: [id])
                    }
                }
            } catch RecordStoreError.unknownIDs {
                continue  // a person deleted before: another one
            }
        }
        guard let row, let elapsed else { return }
        timings["\(row) \(kind)", default: []].append(milliseconds(elapsed))
        timings["\(row) all", default: []].append(milliseconds(elapsed))
    }
    for _ in 0..<20 { try write(timedAs: nil) }
    // The writes alone, with and without the log, in alternating blocks of 50: FTS5's larger
    // merge steps and the WAL's checkpoints, 5–35 ms each and about 1.5% of the writes at 1M,
    // then fall on both alike. Their p99 sits among those slow writes, so it takes thousands
    // to settle: with 1,000 a side in one block each, the same code measured 0.9× to 2.3×.
    // Switching the log changes the schema, so the first write after it prepares its
    // statements again: untimed. The log is on after.
    for _ in 0..<max(1, writes / 2) {
        for logs in [false, true] {
            try index.logChanges(logs)
            try write(timedAs: nil)
            for _ in 0..<50 { try write(timedAs: logs ? "write" : "write-without-log") }
        }
    }
    for request in requests { _ = try index.search(request) }
    var mismatches = 0
    for round in 0..<writes {
        try write(timedAs: nil)
        let request = requests.randomElement(using: &random)!
        var results: SearchResults?
        timings["after-write search", default: []].append(
            milliseconds(try clock.measure { results = try index.search(request) }))
        guard round % 10 == 0, let results else { continue }
        let reference = try index.referenceSearch(request)
        if results != reference {
            mismatches += 1
            printError(
                "MISMATCH for \(request.text) after a write: total \(results.total) vs \(reference.total), "
                    + "ids \(results.hits.map { $0.record.id ?? 0 }) vs \(reference.hits.map { $0.record.id ?? 0 })\n"
            )
        }
    }
    for (name, values) in timings.sorted(by: { $0.key < $1.key }) {
        let parts = name.split(separator: " ").map(String.init)
        printRow(parts[0], parts[1], values)
        // A write's p99 sits where its few slow ones (a merge step, a checkpoint) end: how
        // many there were tells whether two p99s differ by more than one of them.
        if parts[0] != "after-write" {
            print("slow\t\(name)\t\(values.filter { $0 > 5 }.count)")
        }
    }
    print("mismatches\t\(mismatches)")
}

/// The naive substring plan: LIKE over the three columns, counted, top 20 by sort name.
func naiveSubstringSearch(_ database: Database, _ text: String) throws {
    let filter = "first_name LIKE ?1 OR last_name LIKE ?1 OR company LIKE ?1"
    let pattern = "%" + text + "%"
    _ = try database.fetchInt(
        sql: "SELECT count(*) FROM people WHERE \(filter)", arguments: [pattern])
    try database.cachedStatement(
        sql: """
            SELECT id, first_name, last_name, company, extra FROM people WHERE \(filter)
            ORDER BY (last_name || ' ' || first_name) COLLATE NOCASE, id LIMIT 20
            """
    ).forEachRow([pattern]) { _ in }
}

/// Forgiving search: substring3 against the naive LIKE plan; substring1, substring2 and fuzzy
/// against prefix matching of the same text; didyoumean alone.
func benchmarkForgivingSearch(_ index: SearchIndex, path: String, queries file: String) throws {
    var classes: [String] = []
    var queries: [String: [String]] = [:]
    for line in lines(of: file) {
        let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { continue }
        if queries[parts[0]] == nil { classes.append(parts[0]) }
        queries[parts[0], default: []].append(parts[1])
    }
    // The plans themselves are compared, so no ranking is kept between a warm-up and its timing.
    index.keepsExpensiveRankings = false
    let database = try Database(path: path, mode: .readOnly)
    func search(_ match: MatchMode) -> (String) throws -> Void {
        { _ = try index.search(SearchRequest(text: $0, kinds: .people, limit: 20, match: match)) }
    }
    for name in classes {
        let texts = queries[name] ?? []
        switch name {
        case "substring3":
            printRow(name, "fast", try timings(of: texts, search(.substring)))
            printRow(
                name, "naive", try timings(of: texts) { try naiveSubstringSearch(database, $0) })
        case "didyoumean":
            let didYouMean = try timings(of: texts) {
                _ = try index.didYouMean(for: SearchRequest(text: $0, kinds: .people))
            }
            printRow(name, "fast", didYouMean)
        default:
            let mode: MatchMode = name == "fuzzy" ? .fuzzy : .substring
            printRow(name, "fast", try timings(of: texts, search(mode)))
            printRow(name, "prefix", try timings(of: texts, search(.prefix)))
        }
    }
}

let arguments = CommandLine.arguments
if arguments.count == 3 {
    switch arguments[1] {
    case "substring-build":
        do {
            // Closed before the process ends, as every command closes it: closing checkpoints
            // the build's WAL (hundreds of MiB at 1M), which the searches timed next would
            // otherwise look every page up in.
            let index = try SearchIndex(path: arguments[2], mode: .existingOnly)
            print("substring-build\t\(format(try index.rebuildSubstringIndexes()))")
        }
        exit(0)
    case "forget-rankings":
        try SearchIndex(path: arguments[2], mode: .existingOnly).forgetKeptRankings()
        exit(0)
    case "naive-sql":
        print(SearchIndex.naivePrefixSQL(for: arguments[2]))
        exit(0)
    case "suggest-sql":
        print(SearchIndex.referenceSuggestionSQL(forPrefix: arguments[2], limit: 10))
        exit(0)
    case "history-file":
        print(SearchIndex.historyFilePath(forDatabaseAt: arguments[2]))
        exit(0)
    default:
        break
    }
}
guard arguments.count >= 4 else {
    printError("usage: ftsearch-bench latency|history DB FILE [MAX [MAX-ONE-LETTER]]\n")
    exit(64)
}
let index = try SearchIndex(path: arguments[2], mode: .existingOnly)
let clock = ContinuousClock()

switch arguments[1] {
case "latency":
    let maximum = arguments.count > 4 ? Int(arguments[4]) ?? 200 : 200
    let maximumOneLetter = arguments.count > 5 ? Int(arguments[5]) ?? maximum : maximum
    let (classes, queries) = queriesByClass(
        in: arguments[3], maximum: maximum, maximumOneLetter: maximumOneLetter)
    var mismatches = 0
    let fastOnly = getenv("FTSEARCH_BENCH_FAST_ONLY") != nil
    let timesCursor = getenv("FTSEARCH_BENCH_CURSOR") != nil
    let repeats = getenv("FTSEARCH_BENCH_REPEAT").flatMap { Int(String(cString: $0)) } ?? 0
    if let without = getenv("FTSEARCH_BENCH_WITHOUT") {
        Ablation.removed = Set(
            String(cString: without).split(separator: ",").map {
                guard let mechanism = Ablation.Mechanism(rawValue: String($0)) else {
                    printError("unknown mechanism \($0)\n")
                    exit(64)
                }
                return mechanism
            })
    }
    for name in classes {
        var fast: [Double] = []
        var uncached: [Double] = []
        var cursor: [Double] = []
        var reference: [Double] = []
        for text in queries[name] ?? [] {
            let request = SearchRequest(text: text, kinds: .people, limit: 20)
            // Warms what the first search reads, as Tantivy's side warms each query by searching
            // it once: by ranking it, even when an earlier run kept its ranking (the search
            // that finds a kept ranking reads no doclist, row size or sort code). Then the
            // ranking is kept, for the search that reads it.
            index.keepsExpensiveRankings = false
            _ = try index.search(request)
            index.keepsExpensiveRankings = true
            _ = try index.search(request)
            var fastResults: SearchResults?
            var referenceResults: SearchResults?
            fast.append(milliseconds(try clock.measure { fastResults = try index.search(request) }))
            index.keepsExpensiveRankings = false
            var firstResults: SearchResults?
            uncached.append(
                milliseconds(try clock.measure { firstResults = try index.search(request) }))
            for _ in 0..<repeats { _ = try index.search(request) }
            if timesCursor {
                index.ranksFromDoclists = false
                cursor.append(milliseconds(try clock.measure { _ = try index.search(request) }))
                index.ranksFromDoclists = true
            }
            index.keepsExpensiveRankings = true
            if fastOnly { continue }
            reference.append(
                milliseconds(
                    try clock.measure { referenceResults = try index.referenceSearch(request) }))
            // Both the kept ranking and the first search (the doclist reader's) must be the
            // reference plan's.
            if fastResults != referenceResults || firstResults != referenceResults {
                mismatches += 1
                printError("MISMATCH for \(text)\n")
            }
        }
        for (plan, values) in [("fast", fast), ("uncached", uncached), ("naive", reference)] {
            printRow(name, plan, values)
        }
        if timesCursor { printRow(name, "cursor", cursor) }
    }
    print("mismatches\t\(mismatches)")
    if mismatches > 0 { exit(1) }
case "ablation":
    let maximum = arguments.count > 4 ? Int(arguments[4]) ?? 50 : 50
    try benchmarkAblation(index, queries: arguments[3], maximum: maximum)
case "after-write":
    // Issue 20: the next search of an already searched short prefix right after a write, and
    // the writes themselves with and without the change log's triggers. Writes to DB.
    let maximum = arguments.count > 4 ? Int(arguments[4]) ?? 200 : 200
    try benchmarkSearchesAfterWrites(index, queries: arguments[3], writes: maximum)
case "forgiving":
    try benchmarkForgivingSearch(index, path: arguments[2], queries: arguments[3])
case "structured":
    try benchmarkStructuredSearch(
        index, path: arguments[2], queries: arguments[3], companies: arguments[4])
case "history":
    let history = try index.history
    var timings: [Double] = []
    for text in lines(of: arguments[3]) {
        timings.append(
            milliseconds(
                try clock.measure {
                    try history.record(text, kinds: .all, resultCount: text.count)
                }))
    }
    printRow("history", "record", timings)
default:
    printError("unknown mode \(arguments[1])\n")
    exit(64)
}
