/// What the screen shows: rows of styled cells, and where the cursor stands. Built by
/// ``SearchScreenRenderer``, drawn by ``FrameWriter``, read as text by tests.
///
/// A character two columns wide fills its cell and the next, which holds a continuation.
struct ScreenGrid: Equatable {
    struct Cell: Equatable {
        /// The character drawn here; nil for the second column of a wide character.
        var character: Character?
        var style: TextStyle

        static let blank = Cell(character: " ", style: [])
    }

    let width: Int
    let height: Int
    private(set) var rows: [[Cell]]
    /// The cursor's row and column, counted from 0.
    var cursor = (row: 0, column: 0)

    init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        rows = Array(
            repeating: Array(repeating: .blank, count: self.width), count: self.height)
    }

    /// Draws `text` on `row` from `column` on; what does not fit in the row is left out (a wide
    /// character that would straddle the edge leaves a blank).
    mutating func draw(_ text: StyledText, row: Int, column: Int = 0) {
        guard rows.indices.contains(row) else { return }
        var position = column
        for styled in text.characters {
            let cellWidth = styled.character.displayWidth
            guard position + cellWidth <= width else {
                if position < width {
                    rows[row][position] = Cell(character: " ", style: styled.style)
                }
                return
            }
            rows[row][position] = Cell(character: styled.character, style: styled.style)
            if cellWidth == 2 {
                rows[row][position + 1] = Cell(character: nil, style: styled.style)
            }
            position += cellWidth
        }
    }

    /// Adds `style` to every cell of `row`.
    mutating func highlight(row: Int, with style: TextStyle) {
        guard rows.indices.contains(row) else { return }
        for column in rows[row].indices {
            rows[row][column].style.formUnion(style)
        }
    }

    /// The text of `row`, trailing spaces removed.
    func text(ofRow row: Int) -> String {
        var text = String(rows[row].compactMap(\.character))
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Every row's text, as `tmux capture-pane` shows a screen.
    var lines: [String] { rows.indices.map(text(ofRow:)) }

    static func == (left: ScreenGrid, right: ScreenGrid) -> Bool {
        left.rows == right.rows && left.cursor == right.cursor
    }
}
