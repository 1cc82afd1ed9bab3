/// The width help text is wrapped to; fixed, so output is the same on a terminal and in a pipe.
let helpScreenWidth = 80

extension String {
    /// This text wrapped at word boundaries so no line is longer than `width`, with every
    /// non-empty line indented by `indent` spaces.
    ///
    /// Existing line breaks are kept (each line is a paragraph of its own, and its leading spaces
    /// indent all of its wrapped lines); a word longer than a line stands alone on its line
    /// rather than being split.
    func wrapped(to width: Int, indent: Int = 0) -> String {
        let available = Swift.max(width - indent, 1)
        let padding = String(repeating: " ", count: indent)
        var lines: [String] = []
        for paragraph in split(separator: "\n", omittingEmptySubsequences: false) {
            let leading = String(paragraph.prefix { $0 == " " })
            var line = ""
            for word in paragraph.split(separator: " ") {
                if line.isEmpty {
                    line = leading + word
                } else if line.count + 1 + word.count <= available {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = leading + word
                }
            }
            lines.append(line)
        }
        return lines.map { $0.isEmpty ? $0 : padding + $0 }.joined(separator: "\n")
    }
}
