@testable import FTSearchKit
import Testing

@testable import ftsearch
import FoundationEssentials

@Suite struct ProgressLineTests {
    /// A clock the test moves by hand.
    final class ManualClock {
        let start = ContinuousClock.now
        var elapsed: Duration = .zero
        var now: ContinuousClock.Instant { start + elapsed }
    }

    private func progress(_ records: Int, bytes: Int64, indexing: Bool = false) -> ImportProgress {
        ImportProgress(
            recordsRead: records, bytesRead: bytes, totalBytes: 1000, isIndexing: indexing)
    }

    @Test func drawsAfterHalfASecondAtMostFourTimesASecondThenIndexingAndClears() {
        let clock = ManualClock()
        let output = OutputWriter.capturing()
        var line = ProgressLine(output: output, isEnabled: true, clock: { clock.now })
        line.show(progress(8192, bytes: 100))
        #expect(output.capturedText.isEmpty)  // short imports show nothing
        clock.elapsed = .seconds(2)
        line.show(progress(100_000, bytes: 410))
        #expect(output.capturedText == "\r\u{1B}[K  100,000 records  50,000/s  41%")
        clock.elapsed = .milliseconds(2100)
        line.show(progress(108_192, bytes: 450))
        #expect(output.capturedText.components(separatedBy: "\r").count == 2)  // not redrawn yet
        line.show(progress(200_000, bytes: 1000, indexing: true))
        #expect(output.capturedText.hasSuffix("\r\u{1B}[K  200,000 records read; indexing…"))
        line.clear()
        #expect(output.capturedText.hasSuffix("\r\u{1B}[K"))
    }

    @Test func saysNothingWhenDisabledOrWhenTheImportWasShort() {
        let clock = ManualClock()
        let output = OutputWriter.capturing()
        var disabled = ProgressLine(output: output, isEnabled: false, clock: { clock.now })
        clock.elapsed = .seconds(5)
        disabled.show(progress(1, bytes: 1))
        var short = ProgressLine(output: output, isEnabled: true, clock: { clock.now })
        short.show(progress(10, bytes: 1000, indexing: true))
        short.clear()
        #expect(output.capturedText.isEmpty)
    }

    @Test func anIndexBuildIsShownAtOnceThenWithItsPercentAtMostFourTimesASecond() {
        let clock = ManualClock()
        let output = OutputWriter.capturing()
        var line = ProgressLine(output: output, isEnabled: true, clock: { clock.now })
        func build(_ done: Int) -> IndexBuildProgress {
            IndexBuildProgress(
                index: "substring index", recordCounts: [.animals: 1, .people: 1999],
                recordsDone: done)
        }
        line.show(build(0))
        let title = "\r\u{1B}[K  Building the substring index of 1,999 people and 1 animal (once)…"
        #expect(output.capturedText == title)
        clock.elapsed = .milliseconds(100)
        line.show(build(500))
        #expect(output.capturedText == title)  // not redrawn yet
        clock.elapsed = .milliseconds(300)
        line.show(build(820))
        #expect(output.capturedText == title + title + "  41%")
        line.clear()
        #expect(output.capturedText.hasSuffix("\r\u{1B}[K"))
    }
}
