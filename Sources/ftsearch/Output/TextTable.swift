/// Columns aligned with spaces, for people at a terminal.
///
/// Cells may carry highlighted ranges, drawn in bold colour when `highlightsMatches` is on;
/// widths are counted in characters of the plain text, so the escape codes never skew columns.
/// Control characters inside values (a company name with a line break) print as spaces.
struct TextTable {
    struct Cell {
        var text: String
        var highlights: [Range<String.Index>] = []
    }

    var headers: [String]
    var rows: [[Cell]] = []
    var highlightsMatches = false
    /// Whether the first line names the columns.
    var showsHeaders = true

    init(headers: [String], highlightsMatches: Bool = false) {
        self.headers = headers
        self.highlightsMatches = highlightsMatches
    }

    mutating func append(_ cells: [Cell]) {
        precondition(cells.count == headers.count, "a row needs one cell per column")
        rows.append(cells)
    }

    mutating func append(plain cells: [String]) {
        append(cells.map { Cell(text: $0) })
    }

    /// The table: a header line, then a line per row, each ending in a newline.
    func rendered() -> String {
        let widths = headers.indices.map { column in
            rows.reduce(headers[column].count) { max($0, Self.clean($1[column].text).count) }
        }
        var output = showsHeaders ? line(headers.map { Cell(text: $0) }, widths: widths) : ""
        for row in rows {
            output += line(row, widths: widths)
        }
        return output
    }

    private func line(_ cells: [Cell], widths: [Int]) -> String {
        var output = ""
        for (column, cell) in cells.enumerated() {
            let isLast = column == cells.count - 1
            output += styled(cell)
            if !isLast {
                output += String(
                    repeating: " ", count: widths[column] - Self.clean(cell.text).count + 2)
            }
        }
        return output + "\n"
    }

    private func styled(_ cell: Cell) -> String {
        guard highlightsMatches, !cell.highlights.isEmpty else { return Self.clean(cell.text) }
        var output = ""
        var position = cell.text.startIndex
        for range in cell.highlights where range.lowerBound >= position {
            output += Self.clean(String(cell.text[position..<range.lowerBound]))
            output += "\u{1B}[1;31m" + Self.clean(String(cell.text[range])) + "\u{1B}[0m"
            position = range.upperBound
        }
        return output + Self.clean(String(cell.text[position...]))
    }

    /// `text` with control characters as spaces.
    static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            return text
        }
        return String(
            String.UnicodeScalarView(
                text.unicodeScalars.map {
                    $0.properties.generalCategory == .control ? " " : $0
                }))
    }
}
