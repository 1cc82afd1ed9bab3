/// The folding ftsearch adds to unicode61's: letters that are not a base letter plus an accent,
/// so `remove_diacritics` leaves them alone, but that people type as plain Latin letters.
///
/// Applied by the `ftsearch` tokenizer (see ``FoldingTokenizer``) to every token unicode61 has
/// already lowercased and stripped of accents, so the index, the query, highlighting, history
/// keys and suggestions all fold through this one table.
enum LetterFolding {
    /// The replacement of each folded letter (lowercase; unicode61 lowercases first, but the
    /// uppercase forms are listed too for letters whose case folding it may skip).
    static let replacements: [Unicode.Scalar: String] = [
        "ø": "o", "Ø": "o",
        "ł": "l", "Ł": "l", "ŀ": "l", "Ŀ": "l",
        "ß": "ss", "ẞ": "ss",
        "æ": "ae", "Æ": "ae",
        "œ": "oe", "Œ": "oe",
        "đ": "d", "Đ": "d", "ð": "d", "Ð": "d",
        "þ": "th", "Þ": "th",
        "ı": "i",
        "ħ": "h", "Ħ": "h",
        "ŧ": "t", "Ŧ": "t",
        "ĳ": "ij", "Ĳ": "ij",
        "ſ": "s",
        "ŉ": "n",
    ]

    /// Appends the folded form of the UTF-8 `token` to `output`.
    static func fold(_ token: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        guard token.contains(where: { $0 >= 0x80 }) else {
            output += token
            return
        }
        for scalar in String(decoding: token, as: UTF8.self).unicodeScalars {
            if let replacement = replacements[scalar] {
                output += replacement.utf8
            } else {
                output += String(scalar).utf8
            }
        }
    }
}
