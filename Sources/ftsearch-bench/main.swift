// The in-process half of scripts/bench; not a product. Prints tab-separated measurements.
//
//   ftsearch-bench latency DB QUERIES.tsv [MAX-PER-CLASS [MAX-ONE-LETTER]]
//       For each query (lines "class<TAB>text"): the default ranked plan and the reference
//       plan (bm25 over every match), warm, alternated, top 20 with total. Checks that both
//       give the same results. Prints "class plan p50_ms p90_ms p99_ms count" rows.
//   ftsearch-bench history DB HISTORY.txt
//       Records every line as a search in the history; prints "history record p50 p90 p99 count".
@_spi(Benchmarking) import FTSearchKit

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

func printError(_ text: String) {
    _ = text.withCString { write(2, $0, strlen($0)) }
}

func format(_ value: Double) -> String {
    let scaled = (value * 1000).rounded() / 1000
    return "\(scaled)"
}

let arguments = CommandLine.arguments
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
    var classes: [String] = []
    var queries: [String: [String]] = [:]
    for line in lines(of: arguments[3]) {
        let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { continue }
        if queries[parts[0]] == nil { classes.append(parts[0]) }
        let cap = parts[0] == "prefix1" ? maximumOneLetter : maximum
        if queries[parts[0], default: []].count < cap {
            queries[parts[0], default: []].append(parts[1])
        }
    }
    var mismatches = 0
    let fastOnly = getenv("FTSEARCH_BENCH_FAST_ONLY") != nil  // for profiling the default plan
    for name in classes {
        var fast: [Double] = []
        var reference: [Double] = []
        for text in queries[name] ?? [] {
            let request = SearchRequest(text: text, kinds: .people, limit: 20)
            _ = try index.search(request)  // warm the pages this query reads
            var fastResults: SearchResults?
            var referenceResults: SearchResults?
            fast.append(milliseconds(try clock.measure { fastResults = try index.search(request) }))
            if fastOnly { continue }
            reference.append(
                milliseconds(
                    try clock.measure { referenceResults = try index.referenceSearch(request) }))
            if fastResults != referenceResults {
                mismatches += 1
                printError("MISMATCH for \(text)\n")
            }
        }
        for (plan, values) in [("fast", fast), ("naive", reference)] {
            print(
                [
                    name, plan, format(percentile(values, 0.5)), format(percentile(values, 0.9)),
                    format(percentile(values, 0.99)), String(values.count),
                ].joined(separator: "\t"))
        }
    }
    print("mismatches\t\(mismatches)")
    if mismatches > 0 { exit(1) }
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
    print(
        [
            "history", "record", format(percentile(timings, 0.5)), format(percentile(timings, 0.9)),
            format(percentile(timings, 0.99)), String(timings.count),
        ].joined(separator: "\t"))
default:
    printError("unknown mode \(arguments[1])\n")
    exit(64)
}
