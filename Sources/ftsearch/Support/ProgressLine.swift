import FTSearchKit

/// A self-overwriting progress line on standard error during long imports:
/// `  250,000 records  83,000/s  41%`, then `  1,000,000 records read; indexing…`; and while an
/// index is built on first use: `  Building the substring index of 1,000,000 people (once)…  41%`.
/// Drawn at most a few times a second, only on a terminal, and only for imports that last.
struct ProgressLine {
    let output: OutputWriter
    let isEnabled: Bool
    private let clock: () -> ContinuousClock.Instant
    private let started: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant?
    private var isShowing = false

    /// - Parameter clock: The current instant (tests pass one they move by hand).
    init(
        output: OutputWriter, isEnabled: Bool,
        clock: @escaping () -> ContinuousClock.Instant = { .now }
    ) {
        self.output = output
        self.isEnabled = isEnabled
        self.clock = clock
        self.started = clock()
    }

    mutating func show(_ progress: ImportProgress) {
        guard isEnabled else { return }
        let now = clock()
        if progress.isIndexing {
            // Always said once the line is up: indexing a large import takes seconds of its own.
            guard isShowing else { return }
            output.write("\r\u{1B}[K  \(Grouped(progress.recordsRead)) records read; indexing…")
            return
        }
        if let lastDrawn, lastDrawn.duration(to: now) < .milliseconds(250) { return }
        if lastDrawn == nil && started.duration(to: now) < .milliseconds(500) { return }
        lastDrawn = now
        let elapsed = max(started.duration(to: now).seconds, 0.001)
        var line =
            "\r\u{1B}[K  \(Grouped(progress.recordsRead)) records  \(Grouped(Int(Double(progress.recordsRead) / elapsed)))/s"
        if let total = progress.totalBytes, total > 0 {
            line += "  \(min(100, Int(progress.bytesRead * 100 / total)))%"
        }
        output.write(line)
        isShowing = true
    }

    /// Shows how far building an index on first use has come. The first report is drawn at
    /// once, however short the build: it says why this one search waits, and comes once per
    /// database.
    mutating func show(_ build: IndexBuildProgress) {
        guard isEnabled else { return }
        let now = clock()
        if isShowing, let lastDrawn, lastDrawn.duration(to: now) < .milliseconds(250) { return }
        lastDrawn = now
        let records = Kind.allCases.compactMap { kind in
            build.recordCounts[kind].map { RecordCount($0, kind).description }
        }
        var line =
            "\r\u{1B}[K  Building the \(build.index) of \(records.joined(separator: " and ")) (once)…"
        if build.recordsDone > 0 && build.recordCount > 0 {
            line += "  \(min(100, build.recordsDone * 100 / build.recordCount))%"
        }
        output.write(line)
        isShowing = true
    }

    /// Erases the line, so that the next message starts on a clean line.
    mutating func clear() {
        guard isShowing else { return }
        output.write("\r\u{1B}[K")
        isShowing = false
    }
}
