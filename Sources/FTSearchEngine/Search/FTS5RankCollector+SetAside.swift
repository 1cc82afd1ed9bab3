/// Rows set aside: how a plan of one token with several match phrases is ranked while its
/// first match phrase drives the walk (see ``StreamedRowScorer``).
///
/// A token's first match phrase is the token as typed (`"mat"*`); the others are its other
/// spellings (`"\u{4}mat"*`, the records spelled Matthäus) or corrections, and hit few rows. A
/// row that only the first hits has bm25 `0.0 + idf₀ × v`, v its term before the IDF, as for a
/// plan of one phrase: such rows are judged as the walk hands them over, by v alone. A row
/// another match phrase hits is set aside, with its hits of every phrase and its size; and so
/// is a row only another phrase hits, which the walk never meets. When the walk is done, every
/// phrase's row count, so its IDF, is known: ``completeSetAside()`` multiplies the candidates'
/// values by idf₀ (bm25 adds 0 for each phrase that does not hit a row, so those are their
/// scores, the same doubles) and judges the rows set aside with their whole bm25, as a plan of
/// several phrases does. The order and the scores are the ones ranking every row with every
/// IDF gives; the rows that only the first phrase hits take the one-phrase path.
extension FTS5RankCollector {
    /// The rows set aside so far, in the order they came: rowid, size and, per phrase of the
    /// plan (signals too), its hit count in each column.
    struct SetAsideRows {
        var rowids: [Int64] = []
        var sizes: [Int32] = []
        var hits: [UInt32] = []
    }

    /// Sets row `rowid` aside, with `hits` (per phrase of the plan, in order, its hit count in
    /// each column) and its size, read now on this collector's connection; false when the row
    /// has no size (not FTS5's row: the cursor ranks the plan).
    func setAside(rowid: Int64, hits: UnsafeBufferPointer<UInt32>) -> Bool {
        precondition(hits.count == plan.phrases.count * plan.weights.count)
        var size: Int32 = 0
        guard readSize(ofRow: rowid, into: &size) else { return false }
        setAsideRows.rowids.append(rowid)
        setAsideRows.sizes.append(size)
        setAsideRows.hits.append(contentsOf: hits)
        return true
    }

    /// Takes in the rows `other` set aside (see ``absorb(_:)``).
    func absorbSetAside(_ other: FTS5RankCollector) {
        setAsideRows.rowids += other.setAsideRows.rowids
        setAsideRows.sizes += other.setAsideRows.sizes
        setAsideRows.hits += other.setAsideRows.hits
    }

    /// Ends a walk whose rows were judged without the IDFs (see the type's comment): sets each
    /// match phrase's IDF from the rows it hit, makes the candidates' values scores, and judges
    /// the rows set aside.
    func completeSetAside() {
        let phraseCount = plan.phrases.count
        let columnCount = plan.weights.count
        let rows = setAsideRows
        let stride = phraseCount * columnCount
        // The rows each match phrase hits: those judged on the way hold the first only.
        var phraseRows = [Int64](repeating: 0, count: matchCount)
        phraseRows[0] = Int64(total + excluded)
        for row in rows.rowids.indices {
            for phrase in 0..<matchCount {
                let start = row * stride + phrase * columnCount
                if rows.hits[start..<(start + columnCount)].contains(where: { $0 > 0 }) {
                    phraseRows[phrase] += 1
                }
            }
        }
        setIDFs(rows: phraseRows)
        rescaleValues(by: idf[0])
        setAsideRows = SetAsideRows()
        for row in rows.rowids.indices {
            beginRow()
            for phrase in 0..<phraseCount {
                for column in 0..<columnCount {
                    recordHits(
                        rows.hits[row * stride + phrase * columnCount + column], ofPhrase: phrase,
                        inColumn: column)
                }
            }
            endRow(rowid: rows.rowids[row], size: rows.sizes[row])
        }
    }

    /// Sets each match phrase's IDF from the number of rows it hits (`rows`, one per phrase;
    /// none: left as they are).
    func setIDFs(rows: [Int64]) {
        for (phrase, hits) in rows.enumerated() {
            idf[phrase] = Self.idf(rows: rowCount, hits: hits)
        }
    }

    /// Multiplies every value kept (the candidates', the threshold's, the best left out's)
    /// by `factor`, as ``finish()`` makes a one-phrase value its score: `0.0 + idf × value`.
    func rescaleValues(by factor: Double) {
        for index in candidates.indices {
            candidates[index].value = 0.0 + factor * candidates[index].value
        }
        if var least = threshold {
            least.value = 0.0 + factor * least.value
            threshold = least
        }
        if let best = bestLeftOut, best.value.isFinite {
            bestLeftOut = (best.tier, 0.0 + factor * best.value)
        }
    }
}
