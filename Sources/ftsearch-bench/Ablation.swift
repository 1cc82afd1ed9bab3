@_spi(Benchmarking) import FTSearchKit

#if canImport(Glibc)
    import Glibc
#endif

/// `ftsearch-bench ablation`: what each mechanism of the pipeline buys, measured by taking it
/// away (see ``Ablation``).
func benchmarkAblation(_ index: SearchIndex, queries path: String, maximum: Int) throws {
    let clock = ContinuousClock()
    let (classes, queries) = queriesByClass(in: path, maximum: maximum, maximumOneLetter: maximum)
    var requests: [(name: String, requests: [SearchRequest])] = classes.map { name in
        (name, (queries[name] ?? []).map { SearchRequest(text: $0, kinds: .people, limit: 20) })
    }
    // Fuzzy searches read the vocabulary (the memory and vocabulary_cache serve them).
    requests.append(
        (
            "fuzzy3",
            (queries["prefix3"] ?? []).prefix(20).map {
                SearchRequest(text: $0, kinds: .people, limit: 20, match: .fuzzy)
            }
        ))
    // Deep pages: the listing and one-letter prefixes far down, where the rows around a
    // page's edges tie (the class the sort codes and parallel sort keys exist for).
    let oneLetter = (queries["prefix1"] ?? []).prefix(3)
    requests.append(
        (
            "deep-pages",
            [0, 1000, 100_000, 500_000].map {
                SearchRequest(text: "", kinds: .people, limit: 20, offset: $0)
            }
                + oneLetter.flatMap { text in
                    [1000, 50_000].map {
                        SearchRequest(text: text, kinds: .people, limit: 20, offset: $0)
                    }
                }
        ))
    let configurations: [Ablation.Mechanism?] = [nil] + Ablation.Mechanism.allCases
    index.keepsExpensiveRankings = false
    var mismatches = 0
    for (name, requests) in requests {
        var times: [String: [Double]] = [:]
        for request in requests {
            var expected: SearchResults?
            for mechanism in configurations {
                Ablation.removed = mechanism.map { [$0] } ?? []
                defer { Ablation.removed = [] }
                // Warm: what the first search reads is in the page cache, as in `latency`.
                _ = try index.search(request)
                var results: SearchResults?
                let elapsed = try clock.measure { results = try index.search(request) }
                times[mechanism?.rawValue ?? "none", default: []].append(milliseconds(elapsed))
                if expected == nil {
                    expected = results
                } else if results != expected {
                    mismatches += 1
                    printError(
                        "MISMATCH without \(mechanism?.rawValue ?? "none"): \(request.text)\n")
                }
            }
        }
        for mechanism in configurations {
            let key = mechanism?.rawValue ?? "none"
            printRow(name, "without-\(key)", times[key] ?? [])
        }
    }
    print("mismatches\t\(mismatches)")
    if mismatches > 0 { exit(1) }
}
