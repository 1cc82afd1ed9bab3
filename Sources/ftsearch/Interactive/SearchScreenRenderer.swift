import FTSearchKit
/// Lays a ``SearchScreen`` out on a ``ScreenGrid`` of the terminal's size:
///
/// ```
/// > ann▏
///   10 matches                        Enter choose  Tab complete  Ctrl-G sections  Esc quit
///   ann mül                           past search                              2 results
/// > Ann Smith                         Annex Ltd                                 person 1
///   Ann-Marie Duff                    National Theatre                         person 14
/// ```
///
/// The query line on top, a status line with the number of matches (followed by `…` while a
/// newer search runs), then the list. Every value is cut to its column with `…`, measured in
/// terminal columns, so wide characters never push a row past the edge.
enum SearchScreenRenderer {
    /// The keys that apply to the selected item, as many as fit, right-aligned on the status
    /// line.
    static func keyHints(for item: SearchScreen.Item?) -> [String] {
        switch item {
        case .pastSearch: ["Enter use", "^D delete", "Tab complete", "^G sections", "Esc quit"]
        case .result, nil: ["Enter choose", "Tab complete", "^G sections", "Esc quit"]
        }
    }

    static func grid(for screen: SearchScreen) -> ScreenGrid {
        var grid = ScreenGrid(width: screen.size.width, height: screen.size.height)
        drawQueryLine(of: screen, on: &grid)
        guard grid.height > 1 else { return grid }
        drawStatusLine(of: screen, on: &grid)
        let items = screen.items
        let rows = screen.rows.dropFirst(screen.scrollTop).prefix(screen.listHeight)
        let rightWidth = rows.reduce(0) { widest, row in
            guard case .item(let index) = row else { return widest }
            let right = columns(of: items[index], inSection: screen.groupsByCompany).right
            return max(widest, right.displayWidth)
        }
        for (offset, row) in rows.enumerated() {
            let line = offset + 2
            switch row {
            case .section(let company):
                grid.draw(
                    StyledText(company.isEmpty ? "(no company)" : company, style: .heading)
                        .truncated(toWidth: grid.width - 2), row: line, column: 2)
            case .item(let index):
                let isSelected = index == screen.selection
                grid.draw(StyledText(isSelected ? "> " : "  ", style: .heading), row: line)
                let text = itemText(
                    items[index], width: grid.width - 2, rightWidth: rightWidth,
                    inSection: screen.groupsByCompany)
                grid.draw(text, row: line, column: 2)
                if isSelected { grid.highlight(row: line, with: .selected) }
            }
        }
        return grid
    }

    /// `> ` and the query, its start cut with `…` when it does not fit before the cursor; the
    /// cursor after the character it stands after.
    private static func drawQueryLine(of screen: SearchScreen, on grid: inout ScreenGrid) {
        let prompt = StyledText(screen.editsFilter ? "filter> " : "> ", style: .heading)
        let line = screen.editsFilter ? screen.filter : screen.query
        let room = max(grid.width - prompt.displayWidth - 1, 1)
        var head = Substring(line.text.prefix(line.cursor))
        var isCut = false
        while head.displayWidth > room - (isCut ? 1 : 0), !head.isEmpty {
            head = head.dropFirst()
            isCut = true
        }
        let tail = line.text.dropFirst(line.cursor)
        let shown = (isCut ? "…" : "") + head
        grid.draw(prompt + StyledText(shown + tail).truncated(toWidth: room + 1), row: 0)
        grid.cursor = (0, min(prompt.displayWidth + shown.displayWidth, grid.width - 1))
    }

    private static func drawStatusLine(of screen: SearchScreen, on grid: inout ScreenGrid) {
        var status = "  " + count(in: screen)
        if screen.isStale { status += " …" }
        if screen.groupsByCompany { status += "  (sections by company)" }
        if !screen.editsFilter, !screen.filter.text.isEmpty {
            status += "  filter: " + screen.filter.text
        }
        // The hints start at a fixed column while the count is short, so they do not move as
        // it changes.
        var left = StyledText(status, style: .dim).fitted(toWidth: max(status.displayWidth, 20))
        var hints = keyHints(for: screen.selectedItem)
        while !hints.isEmpty,
            left.displayWidth + 2 + hints.joined(separator: "  ").displayWidth > grid.width
        {
            hints.removeFirst()
        }
        let right = StyledText(hints.joined(separator: "  "), style: .dim)
        // The top companies' counts, as many whole ones as fit between the two (a `…` there
        // would read as a search still running).
        if let companies = screen.listing?.companies, !companies.isEmpty {
            let room = grid.width - right.displayWidth - status.displayWidth - 4
            var counts = ""
            for company in companies.prefix(3) {
                let entry =
                    (counts.isEmpty ? "" : ", ")
                    + "\(company.value.isEmpty ? "(no company)" : company.value) \(company.count)"
                guard counts.displayWidth + entry.displayWidth <= room else { break }
                counts += entry
            }
            if !counts.isEmpty { left = StyledText(status + "  " + counts, style: .dim) }
        }
        grid.draw(left.fitted(toWidth: grid.width - right.displayWidth) + right, row: 1)
    }

    /// `10 matches`, `1 match`, `no matches`; for the empty text, the past searches listed.
    static func count(in screen: SearchScreen) -> String {
        guard let listing = screen.listing else { return "searching" }
        if let problem = listing.filterError { return problem }
        if listing.text.isEmpty && listing.filter.isEmpty {
            switch listing.pastSearches.count {
            case 0: return "no past searches; type to search"
            case 1: return "1 past search"
            case let count: return "\(Grouped(count)) past searches"
            }
        }
        switch listing.total {
        case 0: return "no matches" + (listing.didYouMean.map { "; did you mean \($0)?" } ?? "")
        case 1: return "1 match"
        case let total: return "\(Grouped(total)) matches"
        }
    }

    /// An item's three columns: name; company (or the past-search marker); kind and id (or
    /// the result count), dim.
    static func columns(of item: SearchScreen.Item, inSection: Bool) -> (
        name: StyledText, middle: StyledText, right: StyledText
    ) {
        switch item {
        case .pastSearch(let past):
            return (
                StyledText(past.text), StyledText("past search", style: .dim),
                StyledText(
                    past.resultCount.map { $0 == 1 ? "1 result" : "\(Grouped($0)) results" }
                        ?? "", style: .dim)
            )
        case .result(let result):
            let record = result.hit.record
            return (
                StyledText(inSection ? "  " : "")
                    + StyledText(record.displayName, matches: result.nameMatches),
                inSection
                    ? StyledText("") : StyledText(result.company, matches: result.companyMatches),
                StyledText(
                    record.kind.singularNoun + (record.id.map { " \($0)" } ?? ""), style: .dim)
            )
        }
    }

    /// One item in `width` columns, its right column right-aligned in `rightWidth` (the widest
    /// on screen, so that the other columns line up), dropped when the screen is narrow.
    static func itemText(
        _ item: SearchScreen.Item, width: Int, rightWidth: Int, inSection: Bool
    ) -> StyledText {
        let (name, middle, right) = columns(of: item, inSection: inSection)
        let gap = 2
        let rightWidth = width >= 40 ? rightWidth : 0
        let left = max(width - rightWidth - (rightWidth > 0 ? gap : 0), 0)
        let nameWidth =
            inSection && middle.displayWidth == 0 ? left : max((left - gap) / 2, 1)
        var line = name.fitted(toWidth: nameWidth)
        if left > nameWidth + gap {
            line = line + StyledText("  ") + middle.fitted(toWidth: left - nameWidth - gap)
        }
        if rightWidth > 0 {
            let padding = StyledText(
                String(repeating: " ", count: max(rightWidth - right.displayWidth, 0)))
            line = line.fitted(toWidth: left) + StyledText("  ") + padding + right
        }
        return line.truncated(toWidth: width)
    }
}
