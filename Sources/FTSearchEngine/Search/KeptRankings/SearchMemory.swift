import Synchronization

/// What searches keep in memory for the next ones, shared by every connection of one process
/// that is given it (a ``SearchIndexPool`` gives one to its readers and its writer): the
/// rankings of expensive searches (the tier of the ``ResultCache`` in front of its table) and
/// each kind's ``Vocabulary`` (in front of `vocabulary_cache`).
///
/// Both are what the database keeps too, but a kept value found here costs no query and no
/// decoding, and it is kept even where the database cannot be written: a server started
/// `--read-only` would otherwise rank every short prefix, and read a million records'
/// vocabulary for every did-you-mean (about a second each), again every time. Each value is
/// kept with the structure record of the indexes it came from (see ``IndexStructure``) and
/// served only while they are unchanged. It holds the ``ResultCache/capacity`` most recently
/// used rankings (at most about 5 MiB: each holds up to ``ResultCache/longestKeptRanking``
/// entries, usually 20) and one vocabulary per kind.
package final class SearchMemory: Sendable {
    private struct KeptRanking {
        var structure: [UInt8]
        var order: RankedOrder
        var lastUse: Int
    }

    private struct State {
        var rankings: [String: KeptRanking] = [:]
        var uses = 0
        var vocabularies: [Kind: (structure: [UInt8], vocabulary: Vocabulary)] = [:]
    }

    private let state = Mutex(State())
    /// The fields of each kind's records, for filters, facets and sort.
    package let fieldTables = FieldTableCache()
    /// What the variant lookups of searches found.
    package let variantGates = VariantGates()
    /// The most rankings kept.
    let capacity: Int

    package init(capacity: Int = ResultCache.capacity) {
        precondition(capacity > 0, "a memory keeps at least one ranking")
        self.capacity = capacity
    }

    /// The ranking kept in `slot`, if the indexes are as they were when it was ranked.
    func order(in slot: ResultCache.Slot) -> RankedOrder? {
        state.withLock { state in
            guard var kept = state.rankings[slot.key], kept.structure == slot.structure else {
                return nil
            }
            state.uses += 1
            kept.lastUse = state.uses
            state.rankings[slot.key] = kept
            return kept.order
        }
    }

    /// Keeps `order` in `slot`, forgetting the least recently used ranking when full.
    func keep(_ order: RankedOrder, in slot: ResultCache.Slot) {
        state.withLock { state in
            state.uses += 1
            if state.rankings[slot.key] == nil, state.rankings.count >= capacity,
                let oldest = state.rankings.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.rankings[oldest] = nil
            }
            state.rankings[slot.key] = KeptRanking(
                structure: slot.structure, order: order, lastUse: state.uses)
        }
    }

    /// How many rankings are kept.
    var rankingCount: Int { state.withLock { $0.rankings.count } }

    /// The vocabulary of `kind` kept for the index whose structure record is `structure`.
    func vocabulary(of kind: Kind, structure: [UInt8]) -> Vocabulary? {
        state.withLock { state in
            state.vocabularies[kind].flatMap { $0.structure == structure ? $0.vocabulary : nil }
        }
    }

    /// Keeps `vocabulary` as `kind`'s for the index whose structure record is `structure`.
    func keep(_ vocabulary: Vocabulary, of kind: Kind, structure: [UInt8]) {
        state.withLock { $0.vocabularies[kind] = (structure, vocabulary) }
    }
}
