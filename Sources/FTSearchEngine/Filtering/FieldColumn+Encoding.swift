/// A ``FieldColumn`` and the record set it was read with as one blob (what
/// ``FieldColumnStore`` keeps in `field_columns`), a few bytes a record:
///
/// - a format byte, a time flag, the capacity (varint);
/// - the record set: its word count (varint), then each word (8 bytes, little-endian);
/// - the term count (varint), then each term: a tag (bit 0: a number follows, bit 1: the
///   display text differs from the folded one), the folded text (varint length, UTF-8), the
///   display text when it differs, the number's bits (8 bytes);
/// - each term's rank (varint), by code;
/// - the width of a code (1, 2 or 4 bytes);
/// - for each rowid below the capacity: a byte holding its flags (bits 0–2) and its number of
///   codes (bits 3–7; 31 and more: 31, then the number as a varint), then its codes.
extension FieldColumn {
    private static let format: UInt8 = 1

    /// The column and `records` as one blob.
    func encoded(records: RowSet) -> [UInt8] {
        var out: [UInt8] = [Self.format, isTime ? 1 : 0]
        let capacity = flags.count
        out.reserveCapacity(capacity * 2 + terms.count * 16 + records.words.count * 8 + 64)
        Self.putVarint(UInt64(capacity), into: &out)
        Self.putVarint(UInt64(records.words.count), into: &out)
        for word in records.words { Self.putFixed(word, bytes: 8, into: &out) }
        Self.putVarint(UInt64(terms.count), into: &out)
        for term in terms {
            let differs = term.display != term.folded
            out.append((term.number == nil ? 0 : 1) | (differs ? 2 : 0))
            Self.putText(term.folded, into: &out)
            if differs { Self.putText(term.display, into: &out) }
            if let number = term.number { Self.putFixed(number.bitPattern, bytes: 8, into: &out) }
        }
        for rank in ranks { Self.putVarint(UInt64(rank), into: &out) }
        let width = Self.codeWidth(forTermCount: terms.count)
        out.append(UInt8(width))
        for rowid in 0..<capacity {
            let start = Int(starts[rowid])
            let count = Int(starts[rowid + 1]) - start
            out.append(flags[rowid] | UInt8(min(count, 31) << 3))
            if count >= 31 { Self.putVarint(UInt64(count), into: &out) }
            for index in start..<(start + count) {
                Self.putFixed(UInt64(codes[index]), bytes: width, into: &out)
            }
        }
        return out
    }

    /// The column and record set of `bytes` (as ``encoded(records:)`` wrote them); nil when
    /// they are not such a blob.
    static func decoded(from bytes: [UInt8]) -> (column: FieldColumn, records: RowSet)? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(buffer: buffer)
            return try? reader.column()
        }
    }

    private static func codeWidth(forTermCount count: Int) -> Int {
        count <= 0x100 ? 1 : count <= 0x1_0000 ? 2 : 4
    }

    private static func putVarint(_ value: UInt64, into out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    private static func putFixed(_ value: UInt64, bytes: Int, into out: inout [UInt8]) {
        for shift in stride(from: 0, to: bytes * 8, by: 8) {
            out.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    private static func putText(_ text: String, into out: inout [UInt8]) {
        putVarint(UInt64(text.utf8.count), into: &out)
        out += text.utf8
    }

    private struct Malformed: Error {}

    /// Reads a blob front to back, throwing ``Malformed`` at anything out of bounds.
    private struct Reader {
        let buffer: UnsafeBufferPointer<UInt8>
        var position = 0

        mutating func byte() throws(Malformed) -> UInt8 {
            guard position < buffer.count else { throw Malformed() }
            defer { position += 1 }
            return buffer[position]
        }

        mutating func varint() throws(Malformed) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                guard shift < 64 else { throw Malformed() }
                value |= UInt64(next & 0x7F) << shift
                if next < 0x80 { return value }
                shift += 7
            }
        }

        mutating func count(atMost limit: Int) throws(Malformed) -> Int {
            let value = try varint()
            guard value <= UInt64(limit) else { throw Malformed() }
            return Int(value)
        }

        @inline(__always)
        mutating func fixed(_ bytes: Int) throws(Malformed) -> UInt64 {
            guard position + bytes <= buffer.count else { throw Malformed() }
            var value: UInt64 = 0
            for offset in 0..<bytes { value |= UInt64(buffer[position + offset]) << (offset * 8) }
            position += bytes
            return value
        }

        mutating func text() throws(Malformed) -> String {
            let length = try count(atMost: buffer.count - position)
            defer { position += length }
            return String(
                decoding: UnsafeBufferPointer(rebasing: buffer[position..<(position + length)]),
                as: UTF8.self)
        }

        mutating func column() throws(Malformed) -> (column: FieldColumn, records: RowSet) {
            guard try byte() == FieldColumn.format else { throw Malformed() }
            let isTime = try byte() == 1
            // Every rowid takes a byte at least: a capacity beyond the blob is no column's.
            let capacity = try count(atMost: buffer.count)
            var records = RowSet(capacity: 0)
            let words = try count(atMost: (buffer.count - position) / 8)
            var recordWords: [UInt64] = []
            recordWords.reserveCapacity(words)
            for _ in 0..<words { recordWords.append(try fixed(8)) }
            records = RowSet(words: recordWords)
            let termCount = try count(atMost: buffer.count - position)
            var terms: [FieldTerm] = []
            terms.reserveCapacity(termCount)
            for _ in 0..<termCount {
                let tag = try byte()
                let folded = try text()
                let display = tag & 2 != 0 ? try text() : folded
                let number = tag & 1 != 0 ? Double(bitPattern: try fixed(8)) : nil
                terms.append(FieldTerm(folded: folded, display: display, number: number))
            }
            var ranks: [Int32] = []
            ranks.reserveCapacity(termCount)
            for _ in 0..<termCount { ranks.append(Int32(try count(atMost: termCount - 1))) }
            let width = Int(try byte())
            guard [1, 2, 4].contains(width) else { throw Malformed() }
            var flags = [UInt8](repeating: 0, count: capacity)
            var starts = [Int32](repeating: 0, count: capacity + 1)
            var codes: [Int32] = []
            codes.reserveCapacity(capacity)
            // The hot loop of a load: a million rowids, checked a row at a time.
            var isWellFormed = true
            flags.withUnsafeMutableBufferPointer { flags in
                starts.withUnsafeMutableBufferPointer { starts in
                    for rowid in 0..<capacity {
                        guard position < buffer.count else {
                            isWellFormed = false
                            return
                        }
                        let head = buffer[position]
                        position += 1
                        flags[rowid] = head & 7
                        var count = Int(head >> 3)
                        if count == 31 {
                            guard let long = try? self.count(atMost: buffer.count - position) else {
                                isWellFormed = false
                                return
                            }
                            count = long
                        }
                        guard position + count * width <= buffer.count else {
                            isWellFormed = false
                            return
                        }
                        for _ in 0..<count {
                            var code = Int(buffer[position])
                            if width > 1 { code |= Int(buffer[position + 1]) << 8 }
                            if width > 2 {
                                code |= Int(buffer[position + 2]) << 16
                                code |= Int(buffer[position + 3]) << 24
                            }
                            position += width
                            guard code < termCount else {
                                isWellFormed = false
                                return
                            }
                            codes.append(Int32(code))
                        }
                        starts[rowid + 1] = Int32(codes.count)
                    }
                }
            }
            guard isWellFormed else { throw Malformed() }
            guard position == buffer.count else { throw Malformed() }
            let column = FieldColumn(
                flags: flags, starts: starts, codes: codes, terms: terms, ranks: ranks,
                isTime: isTime)
            return (column, records)
        }
    }
}
