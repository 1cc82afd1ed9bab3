/// The text being typed on the query line and the cursor in it, with the editing keys of a
/// shell's line: insert at the cursor, delete either side, delete a word, clear.
struct QueryLine: Equatable {
    private(set) var text = ""
    /// The cursor, in characters from the start.
    private(set) var cursor = 0

    /// Inserts `typed` at the cursor and moves the cursor after it. A combining mark typed
    /// after a letter joins it (`u` then U+0308 is one `ü`).
    mutating func insert(_ typed: String) {
        let head = String(text.prefix(cursor)) + typed
        text = head + text.dropFirst(cursor)
        cursor = min(head.count, text.count)
    }

    /// Replaces the whole text, with the cursor at its end.
    mutating func replace(with newText: String) {
        text = newText
        cursor = newText.count
    }

    /// Deletes the character before the cursor; false when there is none.
    mutating func deleteBackward() -> Bool {
        guard cursor > 0 else { return false }
        text = String(text.prefix(cursor - 1) + text.dropFirst(cursor))
        cursor -= 1
        return true
    }

    /// Deletes the character under the cursor; false when there is none.
    mutating func deleteForward() -> Bool {
        guard cursor < text.count else { return false }
        text = String(text.prefix(cursor) + text.dropFirst(cursor + 1))
        return true
    }

    /// Deletes the word before the cursor and the spaces after it, as Ctrl-W does in a shell;
    /// false when there is nothing before the cursor.
    mutating func deleteWordBackward() -> Bool {
        let head = text.prefix(cursor)
        guard !head.isEmpty else { return false }
        var start = head.endIndex
        while start > head.startIndex, head[head.index(before: start)].isWhitespace {
            start = head.index(before: start)
        }
        while start > head.startIndex, !head[head.index(before: start)].isWhitespace {
            start = head.index(before: start)
        }
        let kept = head[..<start]
        text = String(kept + text.dropFirst(cursor))
        cursor = kept.count
        return true
    }

    /// Moves the cursor `offset` characters, staying inside the text.
    mutating func moveCursor(by offset: Int) {
        cursor = min(max(cursor + offset, 0), text.count)
    }

    /// Moves the cursor to the start (`toEnd` false) or the end of the text.
    mutating func moveCursor(toEnd: Bool) {
        cursor = toEnd ? text.count : 0
    }
}
