/// A set of ids kept as sorted runs of consecutive ids, so that the ids SQLite gives a million
/// records in a row take one run, not a million entries.
struct IDRuns {
    private var runs: [ClosedRange<Int64>] = []

    func contains(_ id: Int64) -> Bool {
        let position = firstRun(endingAtOrAbove: id)
        return position < runs.count && runs[position].contains(id)
    }

    mutating func insert(_ id: Int64) {
        let position = firstRun(endingAtOrAbove: id)
        if position < runs.count && runs[position].contains(id) { return }
        let joinsPrevious = position > 0 && runs[position - 1].upperBound == id - 1
        let joinsNext = position < runs.count && runs[position].lowerBound == id + 1
        switch (joinsPrevious, joinsNext) {
        case (true, true):
            runs[position - 1] = runs[position - 1].lowerBound...runs[position].upperBound
            runs.remove(at: position)
        case (true, false):
            runs[position - 1] = runs[position - 1].lowerBound...id
        case (false, true):
            runs[position] = id...runs[position].upperBound
        case (false, false):
            runs.insert(id...id, at: position)
        }
    }

    mutating func remove(_ id: Int64) {
        let position = firstRun(endingAtOrAbove: id)
        guard position < runs.count, runs[position].contains(id) else { return }
        let run = runs[position]
        var pieces: [ClosedRange<Int64>] = []
        if run.lowerBound < id { pieces.append(run.lowerBound...id - 1) }
        if id < run.upperBound { pieces.append(id + 1...run.upperBound) }
        runs.replaceSubrange(position...position, with: pieces)
    }

    /// The position of the first run whose last id is `id` or above (binary search).
    private func firstRun(endingAtOrAbove id: Int64) -> Int {
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].upperBound < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
