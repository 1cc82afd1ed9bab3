/// The mechanisms of the search pipeline that `ftsearch-bench ablation` takes away one at a
/// time, to measure what each buys (docs/architecture.md: What each piece buys, measured by
/// taking it away). Nothing is removed unless a benchmark says so; searches give the same
/// results either way (only their speed differs).
@_spi(Benchmarking)
public enum Ablation {
    /// A mechanism that can be taken away.
    public enum Mechanism: String, CaseIterable, Sendable {
        /// Row sizes read from FTS5's `%_docsize` instead of the row-size blocks.
        case rowSizes = "row-sizes"
        /// Ties ordered by whole names, without the sort codes and their map.
        case sortCodes = "sort-codes"
        /// Every plan ranked on one connection (no ``ParallelMatches``).
        case parallelMatching = "parallel-matching"
        /// No sharing of segments one at a time between two connections.
        case sharedSegments = "shared-segments"
        /// No halves of the rowids.
        case rowHalves = "row-halves"
        /// No halves of the segments decoded, then scored.
        case decodedHalves = "decoded-halves"
        /// Nothing kept in the process's memory (rankings, vocabularies).
        case memory
        /// Vocabularies read from `fts5vocab` every time, not from `vocabulary_cache`.
        case vocabularyCache = "vocabulary-cache"
        /// Variant lookups asked of FTS5 every time, not kept in ``VariantGates``.
        case variantGates = "variant-gates"
    }

    /// The mechanisms taken away, for the whole process; set once, before searching.
    nonisolated(unsafe) public static var removed: Set<Mechanism> = []

    /// Whether `mechanism` is in use.
    @inline(__always)
    package static func uses(_ mechanism: Mechanism) -> Bool {
        removed.isEmpty || !removed.contains(mechanism)
    }
}
