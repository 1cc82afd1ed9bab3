import FTSearchKit

/// A self-overwriting progress line on standard error during long imports:
/// `  250,000 records  83,000/s  41%`, then `  1,000,000 records read; indexing…`. Drawn at most a
/// few times a second, only on a terminal, and only for imports that last.
struct ProgressLine {
    let output: OutputWriter
    let isEnabled: Bool
    private let started = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?
    private var isShowing = false

    init(output: OutputWriter, isEnabled: Bool) {
        self.output = output
        self.isEnabled = isEnabled
    }

    mutating func show(_ progress: ImportProgress) {
        guard isEnabled else { return }
        let now = ContinuousClock.now
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

    /// Erases the line, so that the next message starts on a clean line.
    mutating func clear() {
        guard isShowing else { return }
        output.write("\r\u{1B}[K")
        isShowing = false
    }
}

/// An integer with thousands separators: `1,250,000`.
struct Grouped: CustomStringConvertible {
    let value: Int

    init(_ value: Int) { self.value = value }

    var description: String {
        let digits = String(value.magnitude)
        var output = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { output += "," }
            output.append(digit)
        }
        return (value < 0 ? "-" : "") + output
    }
}

/// A number with a fixed count of decimals: `0.04`.
struct Fixed: CustomStringConvertible {
    let value: Double
    let decimals: Int

    init(_ value: Double, decimals: Int) {
        self.value = value
        self.decimals = decimals
    }

    var description: String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        guard decimals > 0 else { return String(whole) }
        return "\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }
}
