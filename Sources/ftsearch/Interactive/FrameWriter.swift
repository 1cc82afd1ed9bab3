/// Turns a ``ScreenGrid`` into the escape codes that draw it, redrawing only the rows that
/// changed since the last frame, inside one synchronized update so the terminal never shows a
/// half-drawn frame.
struct FrameWriter {
    /// Whether to use colours; without (`NO_COLOR`), styles are bold, underline and reverse.
    let usesColor: Bool

    /// The escape codes that turn a screen showing `previous` (nil: anything, so everything is
    /// drawn after clearing it) into one showing `grid`.
    func update(from previous: ScreenGrid?, to grid: ScreenGrid) -> String {
        let isRedraw =
            previous.map { $0.width != grid.width || $0.height != grid.height } ?? true
        var output = "\u{1B}[?2026h\u{1B}[?25l"
        if isRedraw { output += "\u{1B}[0m\u{1B}[2J" }
        for row in grid.rows.indices where isRedraw || previous!.rows[row] != grid.rows[row] {
            output += "\u{1B}[\(row + 1);1H" + line(grid.rows[row])
        }
        output += "\u{1B}[\(grid.cursor.row + 1);\(grid.cursor.column + 1)H"
        return output + "\u{1B}[?25h\u{1B}[?2026l"
    }

    /// One row: its cells with a style change wherever the style changes, plain blanks at the
    /// end left to an erase-to-end-of-line.
    private func line(_ cells: [ScreenGrid.Cell]) -> String {
        var end = cells.endIndex
        while end > 0, cells[end - 1] == .blank { end -= 1 }
        var output = ""
        var style: TextStyle? = nil
        for cell in cells[..<end] {
            if cell.style != style {
                output += sgr(cell.style)
                style = cell.style
            }
            if let character = cell.character { output.append(character) }
        }
        return output + "\u{1B}[0m\u{1B}[K"
    }

    /// Select Graphic Rendition: a reset, then the attributes of `style`.
    func sgr(_ style: TextStyle) -> String {
        var codes = ["0"]
        if usesColor {
            if style.contains(.selected) { codes.append("48;5;237") }
            if style.contains(.match) { codes += ["1", "31"] }
            if style.contains(.dim) { codes.append("2") }
            if style.contains(.heading) { codes += ["1", "36"] }
        } else {
            if style.contains(.selected) { codes.append("7") }
            if style.contains(.match) { codes += ["1", "4"] }
            if style.contains(.dim) { codes.append("2") }
            if style.contains(.heading) { codes.append("1") }
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
