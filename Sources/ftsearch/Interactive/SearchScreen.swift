import FTSearchKit

/// The state of `ftsearch interactive`'s screen and how keys, search results and resizes change
/// it. Pure: it asks for searches and history changes by returning ``Effect``s, and
/// ``SearchScreenRenderer`` draws it, so both are tested without a terminal or a database.
///
/// While the query line is empty the list holds past searches, ranked as `suggest` ranks them;
/// once text is typed, the past searches that complete it (a few) and then the ranked results.
struct SearchScreen {
    /// The terminal's size in columns and rows.
    struct Size: Equatable, Sendable {
        var width: Int
        var height: Int
    }

    /// A past search, as listed.
    struct PastSearch: Equatable, Sendable {
        var text: String
        /// How many records it found the last time it ran.
        var resultCount: Int?
    }

    /// A result, with the characters a search matched in its name and company (as offsets, in
    /// characters, into ``Record/displayName`` and the company).
    struct ListedResult: Equatable, Sendable {
        var hit: SearchHit
        var nameMatches: [Range<Int>] = []
        var companyMatches: [Range<Int>] = []

        var company: String { hit.record[field: "company"] ?? "" }
    }

    /// What the screen needs looked up for the query line's text.
    struct Request: Equatable, Sendable {
        var text: String
        /// The most results to rank (more as the selection pages down).
        var resultLimit: Int
        /// The most past searches to list.
        var pastSearchLimit: Int
        /// The filter expression (Ctrl-F), empty for none.
        var filter = ""
    }

    /// What was found for a request's text.
    struct Listing: Equatable, Sendable {
        var text: String
        var pastSearches: [PastSearch]
        var results: [ListedResult]
        /// The number of all matches (0 for empty text, which lists past searches only).
        var total: Int
        /// For text that found nothing, a correction that finds records.
        var didYouMean: String? = nil
        /// The filter expression the results are for.
        var filter = ""
        /// Why the filter does not parse, when it does not.
        var filterError: String? = nil
        /// The companies of all matches and their counts, most first.
        var companies: [FacetValue] = []
    }

    /// Something the screen needs done outside of it.
    enum Effect: Equatable {
        /// Look up past searches and results for the text; newer requests supersede older ones.
        case search(Request)
        /// Delete the past search with this text from the history.
        case deletePastSearch(String)
        /// Find the top suggestion for this text, for ``complete(_:with:)``.
        case suggest(String)
        /// The screen is done.
        case finish(Outcome)
    }

    /// How the screen ended.
    enum Outcome: Equatable {
        /// Enter on a result: the record, and the search that found it.
        case chosen(SearchHit, query: String, total: Int)
        /// Esc or Ctrl-C.
        case cancelled
    }

    /// An entry of the list that the selection can be on.
    enum Item: Equatable {
        case pastSearch(PastSearch)
        case result(ListedResult)
    }

    /// A row of the list: an item (by index into ``items``), or a company's section title.
    enum Row: Equatable {
        case item(Int)
        case section(String)
    }

    private(set) var query = QueryLine()
    /// The filter expression, edited after Ctrl-F.
    private(set) var filter = QueryLine()
    /// Whether keys edit the filter rather than the query (Ctrl-F; Enter or Ctrl-F goes back).
    private(set) var editsFilter = false
    /// The latest listing received; it may be for an older text than the query line's.
    private(set) var listing: Listing?
    private(set) var size: Size
    /// The selected item, an index into ``items``.
    private(set) var selection = 0
    /// The first row of ``rows`` on the screen.
    private(set) var scrollTop = 0
    /// Whether results are shown in sections per company (Ctrl-G).
    private(set) var groupsByCompany = false
    private var resultLimit = 0

    init(size: Size) {
        self.size = size
    }

    /// The rows of the list on the screen: all but the query line and the status line.
    var listHeight: Int { max(size.height - 2, 1) }

    /// The first search: of `text` typed on the command line, with the cursor after it, or
    /// of the empty text (the history).
    mutating func start(with text: String = "") -> [Effect] {
        query.replace(with: text)
        return textChanged()
    }

    /// Whether the list is for an older text than the query line's (a search is running).
    var isStale: Bool { listing?.text != query.text || listing?.filter != filter.text }

    // MARK: Items and rows

    /// Past searches, then results (by company, in sections, when grouped).
    var items: [Item] {
        guard let listing else { return [] }
        let results =
            groupsByCompany
            ? CompanySections.sorted(listing.results, byCompany: \.company) : listing.results
        return listing.pastSearches.map(Item.pastSearch) + results.map(Item.result)
    }

    var rows: [Row] {
        let items = self.items
        guard groupsByCompany else { return items.indices.map(Row.item) }
        var rows: [Row] = []
        var company: String?
        for (index, item) in items.enumerated() {
            if case .result(let result) = item, result.company != company {
                company = result.company
                rows.append(.section(result.company))
            }
            rows.append(.item(index))
        }
        return rows
    }

    var selectedItem: Item? {
        let items = self.items
        return items.indices.contains(selection) ? items[selection] : nil
    }

    // MARK: Keys

    /// Applies a key; returns what must be done for it.
    mutating func handle(_ key: Key) -> [Effect] {
        switch key {
        case .text(let text):
            return edit {
                $0.insert(text)
                return true
            }
        case .backspace:
            return edit { $0.deleteBackward() }
        case .delete:
            return edit { $0.deleteForward() }
        case .control("w"):
            return edit { $0.deleteWordBackward() }
        case .control("u"):
            return edit { line in
                guard !line.text.isEmpty else { return false }
                line.replace(with: "")
                return true
            }
        case .left:
            _ = edit {
                $0.moveCursor(by: -1)
                return false
            }
        case .right:
            _ = edit {
                $0.moveCursor(by: 1)
                return false
            }
        case .home, .control("a"):
            _ = edit {
                $0.moveCursor(toEnd: false)
                return false
            }
        case .end, .control("e"):
            _ = edit {
                $0.moveCursor(toEnd: true)
                return false
            }
        case .control("f"):
            editsFilter.toggle()
        case .enter where editsFilter, .escape where editsFilter:
            editsFilter = false
        case .up, .control("p"):
            return moveSelection(by: -1)
        case .down, .control("n"):
            return moveSelection(by: 1)
        case .pageUp:
            return moveSelection(by: -listHeight)
        case .pageDown:
            return moveSelection(by: listHeight)
        case .enter:
            return chooseSelectedItem()
        case .control("d"):
            return deleteSelectedPastSearch()
        case .control("g"):
            toggleSections()
        case .tab:
            return [.suggest(query.text)]
        case .escape, .control("c"):
            return [.finish(.cancelled)]
        default:
            break
        }
        return []
    }

    /// Applies `change` to the line keys edit (the filter's after Ctrl-F); searches again when
    /// it changed the text. A cursor move changes nothing.
    private mutating func edit(_ change: (inout QueryLine) -> Bool) -> [Effect] {
        let changed = editsFilter ? change(&filter) : change(&query)
        return changed ? textChanged() : []
    }

    /// A new text ranks one screenful (the fewer, the faster); paging fetches more.
    private mutating func textChanged() -> [Effect] {
        resultLimit = listHeight
        return [.search(request)]
    }

    /// The lookup for the current text and page.
    var request: Request {
        Request(
            text: query.text, resultLimit: resultLimit,
            pastSearchLimit: query.text.isEmpty ? resultLimit : min(3, max(listHeight / 3, 1)),
            filter: filter.text)
    }

    private mutating func moveSelection(by offset: Int) -> [Effect] {
        let count = items.count
        guard count > 0 else { return [] }
        selection = min(max(selection + offset, 0), count - 1)
        keepSelectionVisible()
        // Near the end of what was fetched: fetch the next pages.
        guard let listing, !isStale, selection >= count - listHeight, hasMore(listing) else {
            return []
        }
        resultLimit += 2 * listHeight
        return [.search(request)]
    }

    private func hasMore(_ listing: Listing) -> Bool {
        listing.text.isEmpty && listing.filter.isEmpty
            ? listing.pastSearches.count >= resultLimit : listing.results.count < listing.total
    }

    private mutating func chooseSelectedItem() -> [Effect] {
        guard let listing else { return [] }
        switch selectedItem {
        case .pastSearch(let past):
            query.replace(with: past.text)
            return textChanged()
        case .result(let result):
            return [.finish(.chosen(result.hit, query: listing.text, total: listing.total))]
        case nil:
            return []
        }
    }

    /// Ctrl-D on a past search: gone from the list at once, from the history by the effect,
    /// and the list fetched again (the next past search moves up).
    private mutating func deleteSelectedPastSearch() -> [Effect] {
        guard case .pastSearch(let past) = selectedItem, var listing else { return [] }
        listing.pastSearches.removeAll { $0 == past }
        self.listing = listing
        selection = min(selection, max(items.count - 1, 0))
        keepSelectionVisible()
        return [.deletePastSearch(past.text), .search(request)]
    }

    /// Ctrl-G: sections per company on or off, the selected result staying selected.
    private mutating func toggleSections() {
        let selected = selectedItem
        groupsByCompany.toggle()
        if case .result = selected, let index = items.firstIndex(where: { $0 == selected }) {
            selection = index
        }
        scrollTop = 0
        keepSelectionVisible()
    }

    // MARK: Replies

    /// Shows what was found. A listing for a new text selects its first result (or, for the
    /// empty text, its first past search); one for the same text keeps the selection.
    mutating func receive(_ newListing: Listing) {
        let isNewText = newListing.text != listing?.text || newListing.filter != listing?.filter
        listing = newListing
        if isNewText {
            selection =
                newListing.text.isEmpty && newListing.results.isEmpty
                ? 0 : newListing.pastSearches.count
            if newListing.results.isEmpty { selection = 0 }
            scrollTop = 0
        }
        selection = min(selection, max(items.count - 1, 0))
        keepSelectionVisible()
    }

    /// Tab's answer: the top suggestion for `text` replaces the query line, if the line still
    /// holds `text` and the suggestion says more.
    mutating func complete(_ text: String, with suggestion: String?) -> [Effect] {
        guard text == query.text, let suggestion, suggestion != text else { return [] }
        query.replace(with: suggestion)
        return textChanged()
    }

    /// Follows a terminal resize; fetches more when the list grew taller than what was fetched.
    mutating func resize(to newSize: Size) -> [Effect] {
        size = newSize
        keepSelectionVisible()
        guard resultLimit < listHeight else { return [] }
        resultLimit = listHeight
        return [.search(request)]
    }

    /// Scrolls so that the selected item (and its section title, right above it) is on screen.
    private mutating func keepSelectionVisible() {
        let rows = self.rows
        guard var row = rows.firstIndex(of: .item(selection)) else {
            scrollTop = 0
            return
        }
        if row > 0, case .section = rows[row - 1], row - 1 < scrollTop { row -= 1 }
        if row < scrollTop { scrollTop = row }
        if let selectedRow = rows.firstIndex(of: .item(selection)),
            selectedRow >= scrollTop + listHeight
        {
            scrollTop = selectedRow - listHeight + 1
        }
        scrollTop = max(min(scrollTop, rows.count - listHeight), 0)
    }
}
