import FTSearchSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Boundaries sampled from the records' sort keys, which spread their ``SortCodes`` over
/// the codes' whole range instead of giving every key its first three bytes: a key's code
/// is the number of boundaries at or below it (two bytes), then its byte where the
/// boundaries around it part (one byte). The first three bytes cannot tell apart the 12,867
/// people of one last name in a million, or any two people whose last names begin alike,
/// which is every match of a three-letter search in last names: ordering such a search's
/// equal scores read every one of their names (a quarter of its time). With a boundary every
/// eight records or so, few rows share a code.
///
/// A database has one map at most, for every kind (a ranking compares people's codes with
/// animals'). It is made from the records of every kind when
/// ``SortCodes/rebuildAll(in:mapMinimum:)`` makes the codes again — by `rebuild`, and after
/// an import that brought ``minimumRecords`` records or more and at least three times the
/// records of the map before — and kept in `sort_code_map` (migration 15) under a random
/// ``id``. Every code is made with it: a later write codes its record with it too (the
/// triggers call `ftsearch_sort_code(key, map id)`), however far its key is from the records
/// the map was made from: a map only makes codes tell more apart, never less than right.
///
/// Why a lower code sorts first: NOCASE orders keys as their folded bytes (``FoldedKey``)
/// order as byte strings, ties aside. A key at or above more boundaries than another is above
/// it. Two keys between the same two boundaries begin with the bytes the boundaries share,
/// so their bytes from there on order them, and the code keeps the first of those.
package struct SortCodeMap: Sendable, Equatable {
    /// The map's row in `sort_code_map`: a random number, so that a connection that kept a
    /// map knows it is still the one stored; 0 for ``empty``.
    let id: Int64
    /// How many records the map was made from.
    let records: Int
    /// The boundaries' folded bytes, one after another, in ascending order.
    private let bytes: [UInt8]
    /// Where each boundary ends in `bytes`.
    private let ends: [Int]
    /// Each boundary's ``prefix(of:)``: most comparisons with a key end there.
    private let prefixes: [UInt64]
    /// For each two first bytes, how many boundaries begin below them (then one past the
    /// last: every boundary): a key's bucket is searched for among those that begin as it
    /// does.
    private let below: [Int32]

    /// The map of a kind that has none: a key's code is its first three folded bytes, as codes
    /// were before maps.
    package static let empty = SortCodeMap(id: 0, records: 0, bytes: [], ends: [])

    /// An import that brings this many records or more makes the map (at a million records,
    /// making it and every code again from the records takes 0.6–1.0 s).
    package static let minimumRecords = 1 << 17
    /// Records per boundary that a map aims at.
    static let recordsPerBoundary = 8
    /// Keys sampled per boundary: every second or so key of the sample, sorted, is one.
    static let samplePerBoundary = 2
    /// The most boundaries a map has: a bucket number takes two bytes.
    static let maximumBoundaries = 0xFFFF
    /// The longest boundary; a key's code depends on its first ``keyLength`` folded bytes.
    static let maximumBoundaryLength = 64
    static let keyLength = maximumBoundaryLength + SortCodes.length

    var isEmpty: Bool { ends.isEmpty }
    var boundaryCount: Int { ends.count }

    /// The key bytes a code keeps after its bucket number: all three without boundaries.
    private var keptBytes: Int {
        switch ends.count {
        case 0: 3
        case ..<0x100: 2
        default: 1
        }
    }

    private init(id: Int64, records: Int, bytes: [UInt8], ends: [Int]) {
        self.id = id
        self.records = records
        self.bytes = bytes
        self.ends = ends
        let prefixes = bytes.withUnsafeBufferPointer { bytes in
            ends.indices.map { index in
                Self.prefix(
                    of: UnsafeBufferPointer(
                        rebasing: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]))
            }
        }
        var below = [Int32](repeating: 0, count: ends.isEmpty ? 0 : 0x1_0001)
        for prefix in prefixes { below[Int(prefix >> 48) + 1] += 1 }
        for first in below.indices.dropFirst() { below[first] += below[first - 1] }
        self.prefixes = prefixes
        self.below = below
    }

    package static func == (a: SortCodeMap, b: SortCodeMap) -> Bool {
        (a.id, a.records, a.bytes, a.ends) == (b.id, b.records, b.bytes, b.ends)
    }

    // MARK: Codes

    /// How many folded bytes of a key its code depends on: three without boundaries.
    var foldedLength: Int { isEmpty ? SortCodes.length : Self.keyLength }

    /// The code of a key whose first ``foldedLength`` (or fewer) folded bytes are `key`; 1 for
    /// a key whose bytes give 0 (an empty key), since 0 marks an id with no record.
    func code(ofFolded key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let bucket = self.bucket(of: key)
        var code = UInt32(bucket)
        var at = start(ofBucket: bucket)
        for _ in 0..<keptBytes {
            code = code << 8 | UInt32(at < key.count ? key[at] : 0)
            at += 1
        }
        return max(code, 1)
    }

    /// The code of the key whose columns `appendColumns` appends (see ``FoldedKey``).
    func code(_ appendColumns: (inout FoldedKey) -> Void) -> UInt32 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: foldedLength) { buffer in
            var key = FoldedKey(in: buffer)
            appendColumns(&key)
            return code(ofFolded: key.bytes)
        }
    }

    /// The code of `key`.
    func code(ofKey key: some Sequence<UInt8>) -> UInt32 {
        code { $0.append(column: key) }
    }

    /// The first ``keyLength`` folded bytes of `key` (see ``FoldedKey``).
    static func folded(_ key: some Sequence<UInt8>) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keyLength) { buffer in
            var folded = FoldedKey(in: buffer)
            folded.append(column: key)
            return Array(folded.bytes)
        }
    }

    /// A sort key's first bytes as NOCASE compares them, made a column at a time into a
    /// buffer, the columns joined by a space as the key joins them: ASCII letters in lower
    /// case, up to the key's first NUL byte (NOCASE orders what follows one by length alone)
    /// or the buffer's end. The one folding of a key, from a record, from SQL's columns and
    /// from the SQL function's text alike.
    struct FoldedKey {
        private let buffer: UnsafeMutableBufferPointer<UInt8>
        private var count = 0
        private var columns = 0
        private var hasEnded = false

        init(in buffer: UnsafeMutableBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        /// The folded bytes so far.
        var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[..<count]) }

        /// Appends the key's next column, after a space when it is not the first.
        mutating func append(column: some Sequence<UInt8>) {
            if columns > 0 { append(0x20) }
            columns += 1
            for byte in column {
                guard !hasEnded else { return }
                append(byte)
            }
        }

        private mutating func append(_ byte: UInt8) {
            guard !hasEnded else { return }
            guard count < buffer.count, byte != 0 else {
                hasEnded = true
                return
            }
            buffer[count] = SortName.lowercased(byte)
            count += 1
        }
    }

    /// How many boundaries are at or below `key`.
    private func bucket(of key: UnsafeBufferPointer<UInt8>) -> Int {
        guard !ends.isEmpty else { return 0 }
        let keyPrefix = Self.prefix(of: key)
        // Those beginning below the key's first two bytes are below it, those beginning
        // above above it.
        let first = Int(keyPrefix >> 48)
        var (low, high) = (Int(below[first]), Int(below[first + 1]))
        bytes.withUnsafeBufferPointer { bytes in
            prefixes.withUnsafeBufferPointer { prefixes in
                while low < high {
                    let middle = (low + high) / 2
                    let prefix = prefixes[middle]
                    let isAtOrBelow =
                        prefix != keyPrefix
                        ? prefix < keyPrefix : Self.compare(boundary(middle, in: bytes), key) <= 0
                    if isAtOrBelow { low = middle + 1 } else { high = middle }
                }
            }
        }
        return low
    }

    /// The first eight bytes of folded bytes as a big-endian number, zeros after the last:
    /// two of them order as the bytes do where they differ (folded bytes are never zero).
    private static func prefix(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var prefix: UInt64 = 0
        for index in 0..<8 {
            prefix = prefix << 8 | UInt64(index < bytes.count ? bytes[index] : 0)
        }
        return prefix
    }

    /// Where the key bytes that a code keeps begin, for keys in `bucket`: after the bytes the
    /// boundaries around it share (none below the first or above the last).
    private func start(ofBucket bucket: Int) -> Int {
        guard bucket > 0 && bucket < ends.count else { return 0 }
        return bytes.withUnsafeBufferPointer { bytes in
            Self.sharedLength(boundary(bucket - 1, in: bytes), boundary(bucket, in: bytes))
        }
    }

    private func boundary(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>)
        -> UnsafeBufferPointer<UInt8>
    {
        UnsafeBufferPointer(rebasing: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
    }

    /// Byte strings in order, a shorter one before those it begins.
    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
        -> Int
    {
        let count = min(a.count, b.count)
        if count > 0 {
            let order = memcmp(a.baseAddress!, b.baseAddress!, count)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    private static func sharedLength(
        _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>
    ) -> Int {
        var length = 0
        while length < min(a.count, b.count) && a[length] == b[length] { length += 1 }
        return length
    }

    // MARK: Making one

    /// A map made from a sample of the records' folded keys, or ``empty`` when they are too few to
    /// need one: an even sample of about ``samplePerBoundary`` keys per boundary, sorted, and
    /// evenly spaced ones of them the boundaries, each cut to the bytes that put it above the
    /// one before (one that parts from it only after ``maximumBoundaryLength`` bytes is left
    /// out).
    init(sampling keys: KeySample, id: Int64) {
        let count = min(Self.maximumBoundaries, keys.records / Self.recordsPerBoundary)
        guard count > 0 else {
            self = .empty
            return
        }
        let step = max(1, keys.count / (Self.samplePerBoundary * count))
        var sample: [Int] = []
        keys.withKeys { key in
            // Sorted by their first eight bytes as a number, whole only where those tie.
            let sorted = stride(from: 0, to: keys.count, by: step).map {
                (prefix: Self.prefix(of: key($0)), index: $0)
            }.sorted {
                $0.prefix != $1.prefix
                    ? $0.prefix < $1.prefix : Self.compare(key($0.index), key($1.index)) < 0
            }
            for (_, index) in sorted
            where sample.last.map({ Self.compare(key($0), key(index)) != 0 }) ?? true {
                sample.append(index)
            }
        }
        let boundaries = min(count, sample.count - 1)
        guard boundaries > 0 else {
            self = .empty
            return
        }
        var bytes: [UInt8] = []
        var ends: [Int] = []
        keys.withKeys { key in
            var previous = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            for number in 1...boundaries {
                // Above the one before (the sample is in ascending order), so it parts from
                // it within its bytes.
                let next = key(sample[number * sample.count / (boundaries + 1)])
                let length = Self.sharedLength(previous, next) + 1
                guard length <= Self.maximumBoundaryLength else { continue }
                bytes += next[..<length]
                ends.append(bytes.count)
                previous = UnsafeBufferPointer(rebasing: next[..<length])
            }
        }
        guard !ends.isEmpty else {
            self = .empty
            return
        }
        self.init(id: id, records: keys.records, bytes: bytes, ends: ends)
    }

    /// An even sample of the folded keys of many records, of at most ``capacity`` keys (cut to
    /// ``keyLength`` bytes) in one buffer: every key while they are few, then every second,
    /// fourth, and so on: when the sample is full, every second key of it is dropped and the
    /// step between two kept doubles.
    struct KeySample {
        /// The most keys a sample holds, by default enough for a map of the most boundaries.
        let capacity: Int

        /// How many keys were appended.
        private(set) var records = 0
        private var step = 1
        private var bytes: [UInt8] = []
        private var ends: [Int] = []

        var count: Int { ends.count }

        init(capacity: Int = 2 * SortCodeMap.samplePerBoundary * SortCodeMap.maximumBoundaries) {
            self.capacity = capacity
        }

        /// Adds a key's folded bytes (see ``FoldedKey``) to the keys sampled.
        mutating func append(folded key: UnsafeBufferPointer<UInt8>) {
            defer { records += 1 }
            guard records % step == 0 else { return }
            if ends.count == capacity { dropEverySecondKey() }
            guard records % step == 0 else { return }
            bytes += key.prefix(SortCodeMap.keyLength)
            ends.append(bytes.count)
        }

        private mutating func dropEverySecondKey() {
            var (kept, keptEnds) = ([UInt8](), [Int]())
            kept.reserveCapacity(bytes.count / 2 + SortCodeMap.keyLength)
            withKeys { key in
                for index in stride(from: 0, to: ends.count, by: 2) {
                    kept += key(index)
                    keptEnds.append(kept.count)
                }
            }
            (bytes, ends, step) = (kept, keptEnds, step * 2)
        }

        /// Calls `body` with a function that gives key `index`'s bytes.
        func withKeys<Result>(
            _ body: ((Int) -> UnsafeBufferPointer<UInt8>) throws -> Result
        ) rethrows -> Result {
            try bytes.withUnsafeBufferPointer { bytes in
                try body { index in
                    UnsafeBufferPointer(
                        rebasing: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
                }
            }
        }
    }

    // MARK: Storing

    /// The boundaries as stored: a format byte, then each boundary as the count of bytes it
    /// shares with the one before, the count of its other bytes, and those bytes.
    var encoded: [UInt8] {
        var encoded: [UInt8] = [Self.format]
        var previous: ArraySlice<UInt8> = []
        for index in ends.indices {
            let boundary = bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
            let shared = zip(previous, boundary).prefix { $0 == $1 }.count
            encoded += [UInt8(shared), UInt8(boundary.count - shared)]
            encoded += boundary.dropFirst(shared)
            previous = boundary
        }
        return encoded
    }

    private static let format: UInt8 = 1

    /// What an error says of a map that cannot be read.
    static let damagedMessage =
        "the sort code map is damaged; `ftsearch rebuild` makes it again from the records"

    /// The map `encoded` holds; nil when it is not one (a damaged row): boundaries must be
    /// in ascending order, at most ``maximumBoundaryLength`` bytes, and at most
    /// ``maximumBoundaries`` of them; a map with boundaries has an id other than 0, and a
    /// count of records a database can hold.
    init?(id: Int64, records: Int, encoded: some Collection<UInt8>) {
        var input = encoded.makeIterator()
        guard input.next() == Self.format, (0...Self.mostRecords).contains(records) else {
            return nil
        }
        var bytes: [UInt8] = []
        var ends: [Int] = []
        var previous: [UInt8] = []
        while let shared = input.next() {
            guard let extra = input.next(), extra > 0, Int(shared) <= previous.count,
                Int(shared) + Int(extra) <= Self.maximumBoundaryLength,
                ends.count < Self.maximumBoundaries
            else { return nil }
            var boundary = Array(previous[..<Int(shared)])
            for _ in 0..<extra {
                guard let byte = input.next() else { return nil }
                boundary.append(byte)
            }
            guard SortName.compare(previous, boundary) < 0 || ends.isEmpty,
                boundary.allSatisfy({ $0 != 0 && SortName.lowercased($0) == $0 })
            else { return nil }
            bytes += boundary
            ends.append(bytes.count)
            previous = boundary
        }
        guard ends.isEmpty || id != 0 else { return nil }
        self.init(id: ends.isEmpty ? 0 : id, records: records, bytes: bytes, ends: ends)
    }

    /// More records than a database holds (a map's count of them above it is damaged).
    private static let mostRecords = 1 << 48
}
