import FTSearchKit

/// CSV with another delimiter (Meilisearch's `csvDelimiter`, one ASCII character) rewritten as
/// it streams into the comma-separated CSV the library reads: each delimiter outside quotes
/// becomes a comma, and an unquoted field that holds a comma is quoted. Quoted fields, line
/// breaks and everything else pass through unchanged.
final class CSVDelimiterTranscoder: ByteSource {
    private enum State {
        case fieldStart, unquoted, quoted, quoteInQuoted
    }

    private let base: any ByteSource
    private let delimiter: UInt8
    private var state = State.fieldStart
    /// The unquoted field being read, held until its end shows whether it needs quotes.
    private var field: [UInt8] = []
    private var output: [UInt8] = []
    private var position = 0
    private var isFinished = false
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)

    init(base: any ByteSource, delimiter: UInt8) {
        precondition(delimiter != UInt8(ascii: "\"") && delimiter < 0x80)
        self.base = base
        self.delimiter = delimiter
    }

    deinit { chunk.deallocate() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while position == output.count && !isFinished {
            output.removeAll(keepingCapacity: true)
            position = 0
            let count = try base.read(into: chunk)
            if count == 0 {
                endField()
                isFinished = true
            }
            for byte in chunk[..<count] { consume(byte) }
        }
        let count = min(buffer.count, output.count - position)
        for offset in 0..<count { buffer[offset] = output[position + offset] }
        position += count
        return count
    }

    private func consume(_ byte: UInt8) {
        let quote = UInt8(ascii: "\"")
        switch state {
        case .quoted:
            output.append(byte)
            if byte == quote { state = .quoteInQuoted }
        case .quoteInQuoted where byte == quote:
            output.append(byte)
            state = .quoted
        case .fieldStart where byte == quote:
            output.append(byte)
            state = .quoted
        case .fieldStart, .unquoted, .quoteInQuoted:
            if byte == delimiter {
                endField()
                output.append(UInt8(ascii: ","))
                state = .fieldStart
            } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                endField()
                output.append(byte)
                state = .fieldStart
            } else if state == .quoteInQuoted {
                output.append(byte)  // malformed: left for the CSV reader to report
            } else {
                field.append(byte)
                state = .unquoted
            }
        }
    }

    private func endField() {
        guard !field.isEmpty else { return }
        if field.contains(UInt8(ascii: ",")) {
            output.append(UInt8(ascii: "\""))
            for byte in field {
                if byte == UInt8(ascii: "\"") { output.append(byte) }
                output.append(byte)
            }
            output.append(UInt8(ascii: "\""))
        } else {
            output += field
        }
        field.removeAll(keepingCapacity: true)
    }
}
