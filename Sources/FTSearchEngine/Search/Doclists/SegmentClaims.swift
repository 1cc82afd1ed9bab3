import Synchronization

/// Hands an FTS5 index's segments out one at a time, oldest first, to the connections that
/// rank one search together (see ``DoclistRanking/Segments/shared(_:)``): each connection
/// asks for the next segment whenever it is done with one, so neither waits long for the
/// other, whichever has the larger segments or started later (a thread asleep between
/// searches wakes late).
///
/// A connection's claims come oldest first, so the rowids of a bulk import's segments ascend
/// through them as they do through all of them.
struct SegmentClaims: Sendable {
    /// The position, oldest first, of the next segment to rank among the `count` of the
    /// structure record read; nil when none is left.
    let next: @Sendable (_ count: Int) -> Int?
    /// Gives no segment out any more: a connection that cannot rank its share has made the
    /// whole fail, and the other need not rank the rest.
    let abandon: @Sendable () -> Void

    /// Every segment to whichever connection asks first.
    init() {
        let counter = Counter()
        next = { count in
            let position = counter.value.wrappingAdd(1, ordering: .relaxed).oldValue
            return position >= 0 && position < count ? position : nil
        }
        abandon = { counter.value.store(.min, ordering: .relaxed) }
    }

    /// Claims that `next` gives out: to split the segments in a set way (tests).
    init(next: @escaping @Sendable (_ count: Int) -> Int?) {
        self.next = next
        abandon = {}
    }

    private final class Counter: Sendable {
        let value = Atomic(0)
    }
}
