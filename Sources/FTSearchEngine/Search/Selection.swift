extension UnsafeMutableBufferPointer {
    /// Puts at `position` the element that sorting by `areInIncreasingOrder` would put there,
    /// every element that comes before it before it and every one that comes after it after
    /// it (C++'s `nth_element`): how the best of many matches are found, or the rows around a
    /// deep page, without sorting them all.
    ///
    /// Elements before `start` must already come no later than every other; they stay where
    /// they are. A quickselect (Hoare's FIND) with a median-of-three pivot and three-way
    /// partitions, so linear on average however many elements tie; a part that takes more
    /// rounds than a well-split search would is sorted instead.
    func select(
        _ position: Int, from start: Int = 0, by areInIncreasingOrder: (Element, Element) -> Bool
    ) {
        precondition(start <= position && position < count)
        var (low, high) = (start, count)  // the range that holds `position`
        var roundsLeft = 2 * (Int.bitWidth - count.leadingZeroBitCount) + 8
        while high - low > 16, roundsLeft > 0 {
            roundsLeft -= 1
            let (first, middle, last) = (self[low], self[(low + high) / 2], self[high - 1])
            // The median of the three.
            let pivot =
                areInIncreasingOrder(first, middle)
                ? (areInIncreasingOrder(middle, last)
                    ? middle : areInIncreasingOrder(first, last) ? last : first)
                : (areInIncreasingOrder(first, last)
                    ? first : areInIncreasingOrder(middle, last) ? last : middle)
            // [low, before) comes before the pivot, [before, after) ties with it, the rest after.
            var (before, index, after) = (low, low, high)
            while index < after {
                if areInIncreasingOrder(self[index], pivot) {
                    swapAt(index, before)
                    before += 1
                    index += 1
                } else if areInIncreasingOrder(pivot, self[index]) {
                    after -= 1
                    swapAt(index, after)
                } else {
                    index += 1
                }
            }
            if position < before {
                high = before
            } else if position >= after {
                low = after
            } else {
                return
            }
        }
        var rest = UnsafeMutableBufferPointer(rebasing: self[low..<high])
        rest.sort(by: areInIncreasingOrder)
    }
}
