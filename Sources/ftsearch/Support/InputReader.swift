/// Where a command reads lines of input from: standard input, or fixed lines for tests.
public final class InputReader {
    private enum Source {
        case standardInput
        case lines([String])
    }

    private let source: Source
    private var nextLineIndex = 0

    private init(source: Source) {
        self.source = source
    }

    /// A reader of the process's standard input.
    public static func standardInput() -> InputReader {
        InputReader(source: .standardInput)
    }

    /// A reader that returns `lines` one by one, then nil.
    public static func lines(_ lines: [String]) -> InputReader {
        InputReader(source: .lines(lines))
    }

    /// The next line without its line ending, or nil at the end of input.
    public func readLine() -> String? {
        switch source {
        case .standardInput:
            return Swift.readLine(strippingNewline: true)
        case .lines(let lines):
            guard nextLineIndex < lines.count else { return nil }
            nextLineIndex += 1
            return lines[nextLineIndex - 1]
        }
    }
}
