import FTSearchSQLite

extension Suggester {
    /// How many records holding a word ``spelling(of:holders:)`` reads at most, per kind.
    static let spellingSample = 32

    /// The index word `term` as the records write it: of the first ``spellingSample`` records
    /// of each kind holding it (by id, people first), the spelling most of them use (`Müller`
    /// rather than `MÜLLER` or `müller`, which fold alike; a record counts once for each
    /// spelling it has), the first met on a tie; `term` itself when none is found.
    ///
    /// `holders` says how many records of each kind hold `term` (the vocabulary's counts), so
    /// that a kind without any is not asked, and reading stops once the records left to read
    /// could no longer lift another spelling above the leading one: a word every record writes
    /// alike is settled by 17 records, not 32.
    ///
    /// - Parameter holders: Each kind to read, in order, with how many of its records hold
    ///   `term`.
    func spelling(of term: String, holders: [(kind: Kind, records: Int)]) throws -> String {
        var tally = SpellingTally()
        var left = holders.reduce(0) { $0 + min($1.records, Self.spellingSample) }
        for (kind, records) in holders where records > 0 && !tally.isSettled(recordsLeft: left) {
            let fields = kind.searchableFields
            let statement = try database.cachedStatement(
                sql: """
                    SELECT \(fields.map { "r." + $0 }.joined(separator: ", "))
                    FROM \(kind.indexName)(?1) AS i CROSS JOIN \(kind.tableName) AS r ON r.id = i.rowid
                    ORDER BY i.rowid LIMIT ?2
                    """)
            try statement.bind([SearchPattern.quoted(term), min(records, Self.spellingSample)])
            defer { statement.reset() }
            while !tally.isSettled(recordsLeft: left), try statement.step() {
                left -= 1
                var spellings: [String] = []
                for column in fields.indices {
                    guard let text = statement.text(at: Int32(column)) else { continue }
                    let words = tokenizer.tokens(in: FoldingTokenizer.separatingControls(text))
                    for token in words where token.text == term {
                        let spelled = String(
                            decoding: Array(text.utf8)[token.sourceRange], as: UTF8.self)
                        if !spellings.contains(spelled) { spellings.append(spelled) }
                    }
                }
                tally.add(spellings)
            }
        }
        return tally.leader ?? term
    }
}

/// How many records write a word each way, in the order the spellings were first met.
struct SpellingTally {
    private var spellings: [(text: String, records: Int)] = []

    /// The spelling most records use, the first met on a tie; nil before any.
    var leader: String? { leading.map { spellings[$0].text } }

    /// The index of the leading spelling: the first of the highest count.
    private var leading: Int? {
        spellings.indices.max { a, b in
            spellings[a].records < spellings[b].records
                || (spellings[a].records == spellings[b].records && a > b)
        }
    }

    /// Counts one record, which writes the word in each of `recordSpellings` (each once).
    mutating func add(_ recordSpellings: [String]) {
        for text in recordSpellings {
            if let index = spellings.firstIndex(where: { $0.text == text }) {
                spellings[index].records += 1
            } else {
                spellings.append((text, 1))
            }
        }
    }

    /// Whether `recordsLeft` more records, each adding at most one to each spelling (even one
    /// not met yet), could not make another spelling lead: the leader is ahead of every other
    /// by more than that.
    func isSettled(recordsLeft: Int) -> Bool {
        guard let leading else { return recordsLeft <= 0 }
        let runnerUp =
            spellings.indices.lazy.filter { $0 != leading }.map {
                spellings[$0].records
            }.max() ?? 0
        return spellings[leading].records - runnerUp > recordsLeft
    }
}
