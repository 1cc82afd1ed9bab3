/// A key pressed at the terminal, or text typed or pasted, as ``KeyDecoder`` reads it.
enum Key: Equatable, Sendable {
    /// Printable text: one typed character, or several pasted at once.
    case text(String)
    case enter
    case tab
    case backspace
    case delete
    case escape
    case up
    case down
    case left
    case right
    case home
    case end
    case pageUp
    case pageDown
    /// Ctrl with a letter, such as `.control("g")`; Ctrl-H, -I, -M and -[ arrive as
    /// ``backspace``, ``tab``, ``enter`` and ``escape``, as terminals send them.
    case control(Character)
}
