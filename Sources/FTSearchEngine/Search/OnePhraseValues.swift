/// The values of a one-word search's rows worked out so far, by frequency and size.
///
/// A row's value is bm25's term for its frequency (a sum of column weights, which takes few
/// values in a search) and its size (under 255 for nearly every row, see ``RowSizes``).
/// Worked out, it takes two divisions, and a row needs it twice: for the bound of its least
/// size, then for its own. Kept here, each is worked out once a search instead: the same
/// doubles, by the same expression. Holds sizes under 256 of up to eight frequencies; others
/// are worked out every time.
final class OnePhraseValues {
    private static let sizes = 256
    private static let frequencyCapacity = 8
    private let values: UnsafeMutablePointer<Double>
    private let isKnown: UnsafeMutablePointer<Bool>
    private let frequencies: UnsafeMutablePointer<Double>
    private var frequencyCount = 0

    init() {
        values = .allocate(capacity: Self.frequencyCapacity * Self.sizes)
        isKnown = .allocate(capacity: Self.frequencyCapacity * Self.sizes)
        isKnown.initialize(repeating: false, count: Self.frequencyCapacity * Self.sizes)
        frequencies = .allocate(capacity: Self.frequencyCapacity)
    }

    deinit {
        values.deallocate()
        isKnown.deallocate()
        frequencies.deallocate()
    }

    /// Forgets every value: for a search whose average row size or IDF may differ.
    func forgetAll() {
        isKnown.update(repeating: false, count: frequencyCount * Self.sizes)
        frequencyCount = 0
    }

    /// Where the values of `frequency` are kept; nil when eight others have taken every place.
    @inline(__always)
    func slot(of frequency: Double) -> Int? {
        for slot in 0..<frequencyCount where frequencies[slot] == frequency { return slot }
        guard frequencyCount < Self.frequencyCapacity else { return nil }
        frequencies[frequencyCount] = frequency
        frequencyCount += 1
        return frequencyCount - 1
    }

    /// The value for a row of `size` at `slot`'s frequency: kept, or worked out by `value` and
    /// kept.
    @inline(__always)
    func value(slot: Int?, size: Int, _ value: () -> Double) -> Double {
        guard let slot, size >= 0, size < Self.sizes else { return value() }
        let index = slot &* Self.sizes &+ size
        if isKnown[index] { return values[index] }
        let worked = value()
        values[index] = worked
        isKnown[index] = true
        return worked
    }
}
