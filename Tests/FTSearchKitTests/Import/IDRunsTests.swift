import Testing
import FTSearchTestSupport

@testable import FTSearchEngine
@testable import FTSearchKit

/// The runs an import keeps of the ids SQLite gave: the same answers as a plain set, whatever
/// the order of inserts and removals, the extreme ids included.
@Suite struct IDRunsTests {
    @Test func consecutiveIDsJoinAndRemovalsSplit() {
        var runs = IDRuns()
        for id in [3, 1, 2, 5, 4] as [Int64] { runs.insert(id) }
        #expect((0...6).map { runs.contains($0) } == [false, true, true, true, true, true, false])
        runs.remove(3)
        #expect((1...5).map { runs.contains($0) } == [true, true, false, true, true])
    }

    @Test func answersAsASetDoes() {
        var generator = SeededGenerator(seed: TestSettings.seed("IDRunsTests", 0))
        let candidates: [Int64] =
            [Int64.min, Int64.min + 1, -1, 0, 1, Int64.max - 1, Int64.max]
            + (0..<40).map { Int64($0) + 100 }
        var runs = IDRuns()
        var model = Set<Int64>()
        for _ in 0..<TestSettings.iterations(2_000) {
            let id = generator.pick(candidates)
            if generator.chance(0.3) {
                runs.remove(id)
                model.remove(id)
            } else {
                runs.insert(id)
                model.insert(id)
            }
            #expect(candidates.filter(runs.contains) == candidates.filter(model.contains))
        }
    }
}
