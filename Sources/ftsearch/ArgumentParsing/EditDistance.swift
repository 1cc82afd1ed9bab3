/// The Levenshtein distance between two strings: how many single-character insertions,
/// deletions and substitutions turn one into the other.
func editDistance(_ source: String, _ target: String) -> Int {
    let source = Array(source)
    let target = Array(target)
    if source.isEmpty { return target.count }
    if target.isEmpty { return source.count }
    var previousRow = Array(0...target.count)
    var currentRow = [Int](repeating: 0, count: target.count + 1)
    for i in 1...source.count {
        currentRow[0] = i
        for j in 1...target.count {
            let substitution = previousRow[j - 1] + (source[i - 1] == target[j - 1] ? 0 : 1)
            currentRow[j] = min(substitution, previousRow[j] + 1, currentRow[j - 1] + 1)
        }
        swap(&previousRow, &currentRow)
    }
    return previousRow[target.count]
}

/// The candidate closest to `input` when it is close enough to be a likely typo, as in
/// `Did you mean '--limit'?`.
///
/// Like swift-argument-parser, only candidates fewer than 4 edits away count; among equally close
/// ones the first wins, so declaration order breaks ties.
func closestMatch(to input: String, among candidates: [String]) -> String? {
    var best: (candidate: String, distance: Int)?
    for candidate in candidates where candidate != input {
        let distance = editDistance(input, candidate)
        guard distance < 4 else { continue }
        if best == nil || distance < best!.distance {
            best = (candidate, distance)
        }
    }
    return best?.candidate
}
