import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit

@Suite struct SortReachTests {
    /// The rows that can reach the first `end` in key order, whatever order they come in: every
    /// row whose key is at most the `end`-th least.
    @Test func sortReachKeepsEveryRowUpToThePagesEnd() {
        var random = SeededGenerator(seed: 5)
        for _ in 0..<50 {
            let termCount = Int.random(in: 1...30, using: &random)
            var starts: [Int32] = [0]
            var codes: [Int32] = []
            for _ in 0..<500 {
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    codes.append(Int32.random(in: 0..<Int32(termCount), using: &random))
                }
                starts.append(Int32(codes.count))
            }
            let ranks = (0..<Int32(termCount)).shuffled(using: &random)
            let column = FieldColumn(
                flags: Array(repeating: FieldColumn.present, count: 500), starts: starts,
                codes: codes,
                terms: (0..<termCount).map { FieldTerm(folded: "\($0)", display: "\($0)") },
                ranks: ranks)
            var rows = RowSet(capacity: 500)
            for rowid in 0..<500 where Bool.random(using: &random) { rows.insert(Int64(rowid)) }
            let descending = Bool.random(using: &random)
            let end = Int.random(in: 1...300, using: &random)
            let reach = SortReach(
                SortReach.Order(column: column, descending: descending, end: end))
            let keys = rows.rowids.map { reach.key(of: $0) }
            guard let expectedKey = keys.sorted().dropFirst(min(end, keys.count) - 1).first
            else { continue }
            let expected = rows.rowids.filter { reach.key(of: $0) <= expectedKey }
            #expect(reach.reaching(rows) == expected, "end \(end), \(termCount) terms")
            for rowid in rows.rowids {
                let values = codes[Int(starts[Int(rowid)])..<Int(starts[Int(rowid) + 1])]
                    .map { ranks[Int($0)] }
                let key =
                    (descending ? values.map { Int32(termCount - 1) - $0 }.min() : values.min())
                    ?? Int32(termCount)
                #expect(reach.key(of: rowid) == key)
            }
        }
    }
}
