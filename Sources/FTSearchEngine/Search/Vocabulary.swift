package import FTSearchSQLite

/// The words of a kind's word index, sorted, with the number of records holding each: where
/// typo-tolerant matching and did-you-mean find their corrections.
///
/// Reading the vocabulary from FTS5 (`fts5vocab`) walks every posting of the index, about a
/// second at a million records, so it is cached in `vocabulary_cache` as one blob per kind,
/// together with the index's structure record (see ``IndexStructure``): a cached vocabulary
/// whose structure differs is stale and is read again (once, by the first search that needs it
/// after a change). Loading the cached blob costs about a millisecond.
package struct Vocabulary: Sendable {
    /// The words' folded UTF-8 bytes, each followed by a 0 byte, in byte order.
    private var bytes: [UInt8] = []
    /// Where each word starts in ``bytes``.
    private var starts: [Int] = []
    /// How many records hold each word.
    private(set) var recordCounts: [Int] = []

    var count: Int { starts.count }

    /// The vocabulary of `kind`'s word index, from `memory` or the cache when it is current.
    package static func load(_ kind: Kind, from database: Database, memory: SearchMemory? = nil)
        throws
        -> Vocabulary
    {
        let structure = try IndexStructure.record(ofIndexNamed: kind.indexName, in: database)
        if let kept = memory?.vocabulary(of: kind, structure: structure) { return kept }
        let cached =
            Ablation.uses(.vocabularyCache)
            ? try database.cachedStatement(
                sql: "SELECT words FROM vocabulary_cache WHERE kind = ?1 AND structure = ?2"
            ).firstRow([kind.rawValue, structure]) { $0.bytes(at: 0) } : nil
        if let cached {
            let vocabulary = Vocabulary(encoded: cached)
            memory?.keep(vocabulary, of: kind, structure: structure)
            return vocabulary
        }
        var vocabulary = Vocabulary()
        try database.cachedStatement(
            sql: "SELECT term, doc FROM \(kind.tableName)_vocabulary ORDER BY term"
        ).forEachRow { row in
            let word = row.bytes(at: 0)
            // Accent and variant forms (see FoldingTokenizer.accentMarker and variantMarkers)
            // are not words one could type.
            if let first = word.first, first != 0x01, !(0x04...0x06).contains(first) {
                vocabulary.append(word, records: row.int(at: 1))
            }
        }
        memory?.keep(vocabulary, of: kind, structure: structure)
        // A read-only or busy database only misses the cache.
        guard Ablation.uses(.vocabularyCache) else { return vocabulary }
        database.writeWithoutWaiting {
            try database.cachedStatement(
                sql:
                    "INSERT OR REPLACE INTO vocabulary_cache(kind, structure, words) VALUES (?1, ?2, ?3)"
            ).execute([kind.rawValue, structure, vocabulary.encoded])
        }
        return vocabulary
    }

    private mutating func append(_ word: [UInt8], records: Int) {
        starts.append(bytes.count)
        bytes += word
        bytes.append(0)
        recordCounts.append(records)
    }

    /// The word at `index`, as folded UTF-8 bytes.
    func word(at index: Int) -> [UInt8] {
        Array(bytes[starts[index]..<(bytes[starts[index]...].firstIndex(of: 0) ?? bytes.count)])
    }

    /// The word at `index` as text.
    func text(at index: Int) -> String { String(decoding: word(at: index), as: UTF8.self) }

    /// Whether some word starts with `prefix`.
    func containsWord(startingWith prefix: [UInt8]) -> Bool {
        let index = firstIndex(notBefore: prefix)
        return index < count && bytes[starts[index]...].starts(with: prefix)
    }

    /// The index of the first word not sorting before `key`.
    private func firstIndex(notBefore key: [UInt8]) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if bytes[starts[middle]...].prefix(while: { $0 != 0 }).lexicographicallyPrecedes(key) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    // MARK: Encoding for the cache

    /// Each word, a 0 byte, then its record count as 4 little-endian bytes.
    private var encoded: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 4 * count)
        for index in 0..<count {
            output += bytes[starts[index]...].prefix(while: { $0 != 0 })
            output.append(0)
            LittleEndian.append(
                UInt64(UInt32(clamping: recordCounts[index])), byteCount: 4, to: &output)
        }
        return output
    }

    private init(encoded: [UInt8]) {
        bytes.reserveCapacity(encoded.count)
        var position = 0
        while position < encoded.count {
            guard let end = encoded[position...].firstIndex(of: 0), end + 4 < encoded.count
            else { break }
            starts.append(bytes.count)
            bytes += encoded[position...end]
            recordCounts.append(Int(LittleEndian.value(in: encoded, at: end + 1, byteCount: 4)))
            position = end + 5
        }
    }

    private init() {}

    // MARK: Typo-tolerant lookup

    /// The words within `maxTypos` edits of `token` (insertions, deletions, substitutions and
    /// swaps of two neighbouring letters, counted on Unicode scalars), with their distance.
    ///
    /// The words are walked in sorted order and the edit-distance rows of the prefix a word
    /// shares with the previous one are kept (a trie walk without building the trie); when
    /// every entry of a row exceeds `maxTypos`, no word with that prefix can be within reach,
    /// so all of them are skipped. Most of the vocabulary is skipped after a letter or two.
    func words(within maxTypos: Int, of token: String) -> [(index: Int, typos: Int)] {
        let target = token.unicodeScalars.map(\.value)
        let width = target.count + 1
        var rows: [[Int]] = [Array(0..<width)]
        var scalars: [UInt32] = []
        var previous: [UInt32] = []
        var found: [(index: Int, typos: Int)] = []
        var index = 0
        while index < count {
            scalars.removeAll(keepingCapacity: true)
            Self.appendScalars(of: bytes[starts[index]...].prefix(while: { $0 != 0 }), to: &scalars)
            var shared = zip(scalars, previous).prefix(while: { $0 == $1 }).count
            shared = min(shared, rows.count - 1)
            rows.removeSubrange((shared + 1)...)
            var prunedAt: Int?
            for depth in shared..<scalars.count {
                let row = Self.nextRow(
                    after: rows, letter: scalars[depth],
                    previousLetter: depth > 0 ? scalars[depth - 1] : nil,
                    target: target)
                rows.append(row)
                if row.min()! > maxTypos {
                    prunedAt = depth + 1
                    break
                }
            }
            if let prunedAt {
                // Skip every word sharing the first `prunedAt` letters: they sort together,
                // before the prefix followed by 0xFF (never a UTF-8 byte).
                let prefix = Array(scalars.prefix(prunedAt))
                previous = prefix
                var key = Array(
                    String(String.UnicodeScalarView(prefix.compactMap(Unicode.Scalar.init))).utf8)
                key.append(0xFF)
                index = max(index + 1, firstIndex(notBefore: key))
                rows.removeSubrange(min(prunedAt, rows.count - 1)...)
                continue
            }
            if let distance = rows.last?.last, distance <= maxTypos {
                found.append((index, distance))
            }
            previous = scalars
            index += 1
        }
        return found
    }

    private static func appendScalars(of word: ArraySlice<UInt8>, to scalars: inout [UInt32]) {
        if word.allSatisfy({ $0 < 0x80 }) {
            for byte in word { scalars.append(UInt32(byte)) }
        } else {
            for scalar in String(decoding: word, as: UTF8.self).unicodeScalars {
                scalars.append(scalar.value)
            }
        }
    }

    /// The edit-distance row for one more letter (optimal string alignment distance).
    private static func nextRow(
        after rows: [[Int]], letter: UInt32, previousLetter: UInt32?, target: [UInt32]
    ) -> [Int] {
        let above = rows[rows.count - 1]
        var row = [above[0] + 1]
        row.reserveCapacity(above.count)
        for column in 1..<above.count {
            let cost = target[column - 1] == letter ? 0 : 1
            var value = min(above[column] + 1, row[column - 1] + 1, above[column - 1] + cost)
            if column > 1, rows.count > 1, let previousLetter, target[column - 2] == letter,
                target[column - 1] == previousLetter
            {
                value = min(value, rows[rows.count - 2][column - 2] + 1)
            }
            row.append(value)
        }
        return row
    }
}
