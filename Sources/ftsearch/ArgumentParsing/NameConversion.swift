extension String {
    /// The command-line spelling of a Swift identifier: lowercase words joined by `-`.
    ///
    /// `noHistory` becomes `no-history`, `outputURL` becomes `output-url` and `HistoryDelete`
    /// becomes `history-delete`, which is how option names and default command names are derived
    /// from property and type names.
    var convertedToKebabCase: String {
        let characters = Array(self)
        var result = ""
        result.reserveCapacity(characters.count + 4)
        for (index, character) in characters.enumerated() {
            if character == "_" {
                if !result.isEmpty && result.last != "-" { result.append("-") }
                continue
            }
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLowercase =
                    index + 1 < characters.count && characters[index + 1].isLowercase
                let startsWord =
                    previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && nextIsLowercase)
                if startsWord && result.last != "-" { result.append("-") }
            }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}
