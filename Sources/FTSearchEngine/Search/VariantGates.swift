import Synchronization

/// What the variant lookups of a search found (see ``QueryEngine``'s `heldPhrases`): whether
/// some row of a word index holds an FTS5 query's terms — the gate of a query word's marked
/// forms (its marker and first three letters), or one of its other spellings — kept with the
/// index's structure record (see ``IndexStructure``) and served only while the index is
/// unchanged.
///
/// A query word of three letters or more asks that question of each kind's index before its
/// plan is made, one FTS5 query that finds nothing for most searches, and that costs about as
/// much as ranking a rare word. The answer depends only on the index and the word's first
/// letters, so every keystroke after the third, and every search repeated, asks it again for
/// nothing: kept here, the next search reads the structure record (one row) instead. It holds
/// at most ``capacity`` answers per index; a change to the index forgets them.
package final class VariantGates: Sendable {
    private struct Kept {
        var structure: [UInt8]
        var answers: [String: Bool] = [:]
    }

    private let kept = Mutex([String: Kept]())
    /// The most answers kept per index; more start the index's answers over.
    static let capacity = 4096

    package init() {}

    /// Whether some row of `index` (whose structure record is `structure`) matches `query`:
    /// the answer kept, else `lookUp()`'s, then kept.
    func isHeld(
        _ query: String, in index: String, structure: [UInt8], lookUp: () -> Bool
    ) -> Bool {
        let known = kept.withLock { kept -> Bool? in
            guard let entry = kept[index], entry.structure == structure else { return nil }
            return entry.answers[query]
        }
        if let known { return known }
        let answer = lookUp()
        kept.withLock { kept in
            var entry = kept[index] ?? Kept(structure: structure)
            if entry.structure != structure || entry.answers.count >= Self.capacity {
                entry = Kept(structure: structure)
            }
            entry.answers[query] = answer
            kept[index] = entry
        }
        return answer
    }
}
