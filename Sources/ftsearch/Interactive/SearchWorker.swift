#if canImport(Glibc)
    import Glibc
#endif
import Dispatch
import FTSearchKit
import Synchronization

/// Looks up what ``SearchScreen`` asks for on a thread of its own, so that typing never waits
/// for a search: each new request cancels the one running (``SearchCancellation``), requests
/// run in order, and replies wait in a mailbox whose pipe the event loop polls.
///
/// The index is used only on the worker's queue; ``search(_:)`` and the other requests are
/// called from the event loop's thread only.
final class SearchWorker: @unchecked Sendable {
    enum Reply: Sendable {
        case listing(SearchScreen.Listing)
        /// The top suggestion for a text (Tab), nil when there is none.
        case suggestion(String?, for: String)
        /// A lookup failed: the screen ends and the error is reported.
        case failure(any Error)
    }

    private let index: SearchIndex
    private let kinds: Set<Kind>
    private let match: MatchMode
    private let queue = DispatchQueue(label: "ftsearch.interactive.search")
    private let mailbox = Mutex<[Reply]>([])
    private let wakeUp: (read: Int32, write: Int32)
    private var running: SearchCancellation?

    /// Readable when replies are waiting (see ``takeReplies()``).
    var fileDescriptor: Int32 { wakeUp.read }

    /// A worker that owns `index` from now on, searching `kinds` in `match` mode.
    init(index: SearchIndex, kinds: Set<Kind>, match: MatchMode) {
        self.index = index
        self.kinds = kinds
        self.match = match
        wakeUp = makeWakeUpPipe()
    }

    deinit {
        close(wakeUp.read)
        close(wakeUp.write)
    }

    /// Starts looking up `request`; the lookup in progress, if any, is abandoned.
    func search(_ request: SearchScreen.Request) {
        running?.cancel()
        let cancellation = SearchCancellation()
        running = cancellation
        queue.async { [self] in
            do {
                let listing = try listing(for: request, cancellation: cancellation)
                post(.listing(listing))
                countCompanies(for: request, of: listing, cancellation: cancellation)
            } catch is CancellationError {
                // A newer request replaced it.
            } catch {
                post(.failure(error))
            }
        }
    }

    /// How long typing must pause before the companies of a listing's matches are counted.
    static let countingPause = DispatchTimeInterval.milliseconds(100)

    /// Posts `listing` again with the companies of all its matches counted, once typing has
    /// paused for ``countingPause`` (unless `cancellation` is raised by then). Counting reads
    /// every match's company, and the first time after the records changed the company of
    /// every record (a third of a second at a million people): the results are drawn without
    /// waiting for it, and keystrokes in a row are not slowed by counts nobody reads.
    private func countCompanies(
        for request: SearchScreen.Request, of listing: SearchScreen.Listing,
        cancellation: SearchCancellation
    ) {
        guard kinds.contains(.people), listing.total > 0, listing.filterError == nil else {
            return
        }
        queue.asyncAfter(deadline: .now() + Self.countingPause) { [self] in
            guard !cancellation.isCancelled else { return }
            do {
                let filter =
                    request.filter.allSatisfy(\.isWhitespace)
                    ? nil : try Filter(parsing: request.filter)
                var counted = listing
                counted.companies =
                    try index.search(
                        SearchRequest(
                            text: request.text, kinds: kinds, limit: 0, match: match,
                            filter: filter, facets: ["company"]),
                        cancellation: cancellation
                    ).facets["company"] ?? []
                post(.listing(counted))
            } catch is CancellationError {
                // A newer request replaced it.
            } catch {
                post(.failure(error))
            }
        }
    }

    /// Deletes a past search from the history (one deleted elsewhere meanwhile, or a database
    /// this process may only read, is no error).
    func deletePastSearch(_ text: String) {
        queue.async { [self] in
            do {
                try index.history.delete(matching: text)
            } catch is HistoryEntryNotFound {
                // Already gone.
            } catch is ReadOnlyDatabaseError {
                // It stays: the list shows it again, with the other searches, on the next listing.
            } catch {
                post(.failure(error))
            }
        }
    }

    /// Looks up the top suggestion for `text`, as `ftsearch suggest` ranks them.
    func suggest(_ text: String) {
        queue.async { [self] in
            do {
                let top = try index.suggestions(
                    forPrefix: text, options: SuggestionOptions(limit: 1, kinds: kinds)
                ).first
                post(.suggestion(top?.text, for: text))
            } catch {
                post(.failure(error))
            }
        }
    }

    /// The replies that arrived, oldest first.
    func takeReplies() -> [Reply] {
        var byte: UInt8 = 0
        while read(wakeUp.read, &byte, 1) == 1 {}
        return mailbox.withLock { replies in
            defer { replies.removeAll() }
            return replies
        }
    }

    /// Abandons the running search, waits for the queue to empty, and runs `body` with the
    /// index: for the last words, such as recording the chosen search.
    func finish<T>(_ body: (SearchIndex) throws -> T) rethrows -> T {
        running?.cancel()
        return try queue.sync { try body(index) }
    }

    private func post(_ reply: Reply) {
        mailbox.withLock { $0.append(reply) }
        var byte: UInt8 = 1
        _ = write(wakeUp.write, &byte, 1)
    }

    /// Past searches completing the text, then (for non-empty text) its ranked results with
    /// what matched in each.
    private func listing(for request: SearchScreen.Request, cancellation: SearchCancellation)
        throws -> SearchScreen.Listing
    {
        let typed = Self.folded(request.text)
        let pastSearches = try index.suggestions(
            forPrefix: request.text,
            options: SuggestionOptions(
                limit: request.pastSearchLimit, kinds: kinds, sources: [.history])
        )
        .filter { typed.isEmpty || Self.folded($0.text) != typed }  // not the text itself
        .map { SearchScreen.PastSearch(text: $0.text, resultCount: $0.resultCount) }
        var filter: Filter?
        if !request.filter.allSatisfy(\.isWhitespace) {
            do {
                filter = try Filter(parsing: request.filter)
            } catch {
                return SearchScreen.Listing(
                    text: request.text, pastSearches: pastSearches, results: [], total: 0,
                    filter: request.filter, filterError: error.description)
            }
        }
        guard !typed.isEmpty || filter != nil else {
            return SearchScreen.Listing(
                text: request.text, pastSearches: pastSearches, results: [], total: 0,
                filter: request.filter)
        }
        let results = try index.search(
            SearchRequest(
                text: request.text, kinds: kinds, limit: request.resultLimit, match: match,
                filter: filter),
            cancellation: cancellation)
        let highlighter = try index.highlighter(for: results)
        let listed = results.hits.map { hit in
            let name = hit.record.displayName
            let company = hit.record[field: "company"] ?? ""
            return SearchScreen.ListedResult(
                hit: hit,
                nameMatches: Self.offsets(of: highlighter.matchedRanges(in: name), in: name),
                companyMatches: Self.offsets(
                    of: highlighter.matchedRanges(in: company), in: company))
        }
        return SearchScreen.Listing(
            text: request.text, pastSearches: pastSearches, results: listed, total: results.total,
            didYouMean: results.didYouMean, filter: request.filter)
    }

    /// The text lowercased with its white space collapsed, to tell a past search that is
    /// what was typed from one that completes it.
    private static func folded(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    /// Ranges of `text` as offsets in characters.
    private static func offsets(of ranges: [Range<String.Index>], in text: String) -> [Range<Int>] {
        ranges.map {
            text.distance(
                from: text.startIndex, to: $0.lowerBound)..<text.distance(
                    from: text.startIndex, to: $0.upperBound)
        }
    }
}
