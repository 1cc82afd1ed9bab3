/// Chinese, Japanese and Korean full names typed as people write them, without a space:
/// `刘晓明` for the last name 刘 and the first name 晓明, `佐藤花子`, `임나경` — or first name
/// first. The index holds the two names as two words (they are two fields), so such a query
/// word, which no word of the index starts with, is searched as the two words it splits into.
///
/// Only a word wholly in Han, kana or Hangul letters, of two letters or more, that starts no
/// word of the index is split (a Latin word is never looked at beyond its first letter): at the
/// first place where both halves are words some record holds together (`"刘" AND "晓明"`, in
/// any fields and either order), else where the first half is such a word and the second
/// starts one (`"刘" AND "晓"*`, as the name is being typed). The halves are then two query
/// words, ranked as any two: the person whose names are exactly the halves first (two whole
/// words), then the others. A word that starts a word of the index stays one word and keeps
/// its prefix or substring matches.
enum JoinedNames {
    /// The query `tokens` with each joined name split in two; `isHeld(query)` tells whether
    /// some record matches an FTS5 query of the word index. Tokens of other scripts are
    /// returned as they are after a look at their first letter.
    static func separating(_ tokens: [String], isHeld: (String) throws -> Bool) rethrows
        -> [String]
    {
        guard tokens.contains(where: mayBeJoinedName) else { return tokens }
        var separated: [String] = []
        for token in tokens {
            if let halves = try halves(of: token, isHeld: isHeld) {
                separated += [halves.0, halves.1]
            } else {
                separated.append(token)
            }
        }
        return separated
    }

    /// Whether `token` starts with a letter of a script whose full names are written without
    /// a space.
    static func mayBeJoinedName(_ token: String) -> Bool {
        token.unicodeScalars.first.map(isJoinedNameLetter) ?? false
    }

    /// The two names `token` is written as, or nil when it is not a joined name.
    static func halves(of token: String, isHeld: (String) throws -> Bool) rethrows
        -> (String, String)?
    {
        guard mayBeJoinedName(token) else { return nil }
        let letters = Array(token.unicodeScalars)
        guard letters.count >= 2, letters.allSatisfy(isJoinedNameLetter),
            try !isHeld(SearchPattern.quoted(token) + "*")
        else { return nil }
        let splits = (1..<letters.count).map { cut in
            (
                String(String.UnicodeScalarView(letters[..<cut])),
                String(String.UnicodeScalarView(letters[cut...]))
            )
        }
        for secondIsPrefix in [false, true] {
            for (first, second) in splits {
                let query =
                    SearchPattern.quoted(first) + " AND " + SearchPattern.quoted(second)
                    + (secondIsPrefix ? "*" : "")
                if try isHeld(query) { return (first, second) }
            }
        }
        return nil
    }

    /// Whether `scalar` is a letter of the scripts that write full names without a space: Han
    /// ideographs, hiragana and katakana, Hangul syllables.
    static func isJoinedNameLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xAC00...0xD7AF, 0xF900...0xFAFF, 0x20000...0x3FFFF:
            true
        default: false
        }
    }
}
