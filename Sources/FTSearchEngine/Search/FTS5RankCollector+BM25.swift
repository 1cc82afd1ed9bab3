import FTSearchSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// bm25 as FTS5's `bm25()` computes it (fts5_aux.c): the same expressions, in the same order of
/// additions, so that the collector's scores are the same doubles.
extension FTS5RankCollector {
    static func idf(rows: Int64, hits: Int64) -> Double {
        let rowCount = Double(rows)
        let hitCount = Double(hits)
        let value = log((rowCount - hitCount + 0.5) / (hitCount + 0.5))
        return value <= 0.0 ? 1e-6 : value
    }

    /// bm25's sum over the match phrases for a row of `size` tokens (fts5Bm25Function).
    @inline(__always)
    static func score(
        size: Double, frequencies: UnsafeMutableBufferPointer<Double>,
        idf: UnsafeMutableBufferPointer<Double>,
        averageSize: Double
    ) -> Double {
        var score = 0.0
        for phrase in 0..<frequencies.count {
            score +=
                idf[phrase]
                * saturation(frequency: frequencies[phrase], size: size, averageSize: averageSize)
        }
        return score
    }

    /// bm25's term for one phrase, before its IDF.
    @inline(__always)
    static func saturation(frequency: Double, size: Double, averageSize: Double) -> Double {
        let k1 = 1.2
        let b = 0.75
        return (frequency * (k1 + 1.0)) / (frequency + k1 * (1 - b + b * size / averageSize))
    }

    /// The value a row of one match phrase gets (see ``Candidate/value``): the same double
    /// ``endRow(rowid:readSize:)`` computes for its `frequency` and `size`, with the index's
    /// row and token counts.
    static func value(frequency: Double, size: Int32, rows: Int64, tokens: Int64) -> Double {
        0.0 + 1.0
            * saturation(
                frequency: frequency, size: Double(size),
                averageSize: Double(tokens) / Double(rows))
    }
}
