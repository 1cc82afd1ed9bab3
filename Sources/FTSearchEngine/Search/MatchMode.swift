/// How the words of a search must match the words of a record.
///
/// Every mode folds case, accents and the letters `LetterFolding` lists on both sides, and
/// every query word must match (in any searchable field, or in the fields the request names).
public enum MatchMode: String, CaseIterable, Sendable, Codable {
    /// Each query word starts a word of the record: `ann` finds Ann, Annabelle and "Annex Ltd".
    case prefix
    /// Each query word occurs anywhere inside a word of the record: `nna` finds Joanna and
    /// Hannah.
    case substring
    /// Each query word is a whole word of the record: `ann` finds Ann, not Anna.
    case exact
    /// Each query word starts a word of the record, or is a whole word of it with a few typos:
    /// none up to 4 letters, 1 up to 8, 2 beyond (see `TypoTolerance`). `smiht` finds Smith.
    case fuzzy
}

/// How many typos a word of a given length may have and still match (Meilisearch's defaults).
enum TypoTolerance {
    /// The typos allowed for a query word of `length` letters: 0 up to 4, 1 up to 8, 2 beyond.
    /// A typo is a letter inserted, deleted or replaced, or two neighbouring letters swapped.
    static func allowedTypos(forLength length: Int) -> Int {
        switch length {
        case ...4: 0
        case ...8: 1
        default: 2
        }
    }
}

extension FullTextIndex {
    /// The index that serves `match` for `kind`.
    package static func serving(_ match: MatchMode, of kind: Kind) -> FullTextIndex {
        match == .substring ? .substrings(of: kind) : .words(of: kind)
    }
}
