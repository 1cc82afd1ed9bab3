/// How a cell of the screen is drawn; ``FrameWriter`` turns it into escape codes, in colour or,
/// under `NO_COLOR`, in bold, underline and reverse video only.
struct TextStyle: OptionSet, Hashable, Sendable {
    let rawValue: UInt8

    /// Text a search matched.
    static let match = TextStyle(rawValue: 1 << 0)
    /// Secondary text: markers, counts, hints.
    static let dim = TextStyle(rawValue: 1 << 1)
    /// The row the selection is on.
    static let selected = TextStyle(rawValue: 1 << 2)
    /// Headings: section titles.
    static let heading = TextStyle(rawValue: 1 << 3)
}

/// A line of text with a style per character, measured in terminal columns, that can be cut to
/// a width with `…` (never wrapped).
struct StyledText: Equatable {
    struct StyledCharacter: Equatable {
        var character: Character
        var style: TextStyle
    }

    private(set) var characters: [StyledCharacter]

    /// `text` in `style`, with the characters at the offsets in `matches` also in
    /// ``TextStyle/match``. Control characters (a line break inside a company name) show as
    /// spaces, so that one value is always one line.
    init(_ text: String, style: TextStyle = [], matches: [Range<Int>] = []) {
        characters = text.enumerated().map { offset, character in
            let isControl = character.unicodeScalars.contains {
                $0.properties.generalCategory == .control
            }
            let isMatch = matches.contains { $0.contains(offset) }
            return StyledCharacter(
                character: isControl ? " " : character,
                style: isMatch ? style.union(.match) : style)
        }
    }

    private init(characters: [StyledCharacter]) {
        self.characters = characters
    }

    /// The plain text, without styles.
    var text: String { String(characters.map(\.character)) }

    /// The columns the text takes.
    var displayWidth: Int {
        characters.reduce(0) { $0 + $1.character.displayWidth }
    }

    /// The text cut to at most `width` columns: when it is wider, as many characters as fit
    /// with a `…` after them.
    func truncated(toWidth width: Int) -> StyledText {
        guard displayWidth > width else { return self }
        guard width > 0 else { return StyledText(characters: []) }
        var kept: [StyledCharacter] = []
        var used = 0
        for styled in characters {
            let next = used + styled.character.displayWidth
            guard next <= width - 1 else { break }
            kept.append(styled)
            used = next
        }
        let ellipsisStyle = (kept.last?.style ?? characters[0].style).subtracting(.match)
        kept.append(StyledCharacter(character: "…", style: ellipsisStyle))
        return StyledText(characters: kept)
    }

    /// The text cut or padded with spaces to exactly `width` columns.
    func fitted(toWidth width: Int) -> StyledText {
        var text = truncated(toWidth: width)
        let style = characters.last?.style.subtracting(.match) ?? []
        let padding = width - text.displayWidth
        if padding > 0 {
            text.characters += repeatElement(
                StyledCharacter(character: " ", style: style), count: padding)
        }
        return text
    }

    static func + (left: StyledText, right: StyledText) -> StyledText {
        StyledText(characters: left.characters + right.characters)
    }

    /// Adds `style` to every character.
    func adding(_ style: TextStyle) -> StyledText {
        StyledText(
            characters: characters.map {
                StyledCharacter(character: $0.character, style: $0.style.union(style))
            })
    }
}
