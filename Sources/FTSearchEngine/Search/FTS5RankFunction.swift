import FTSearchSQLite

enum FTS5RankFunction {
    static let name = "ftsearch_rank"
    /// The type of the collector pointer argument (https://sqlite.org/bindptr.html).
    static let pointerType = SQLPointerType("ftsearch_rank_collector")

    /// Registers `ftsearch_rank` on `database` (see
    /// ``FTSearchSQLite/Database/registerSearchExtensions()``).
    static func register(on database: Database) throws(SQLiteError) {
        try database.registerFTS5Function(named: name, pointerType: pointerType) { pointer, row in
            let collector = Unmanaged<FTS5RankCollector>.fromOpaque(pointer)
                .takeUnretainedValue()
            let code = collector.visitRow(row)
            if code != SQLiteResultCode.ok.rawValue { collector.fail(code) }
            return code
        }
    }
}

extension Statement {
    /// Binds `collector` as the pointer argument of `ftsearch_rank` at the 1-based `index`.
    /// The caller keeps the collector alive until the statement is reset.
    func bind(_ collector: FTS5RankCollector, at index: Int32) throws(SQLiteError) {
        try bind(collector, as: FTS5RankFunction.pointerType, at: index)
    }
}

extension FTS5RankCollector {
    // MARK: Called by the auxiliary function, once per matching row

    func start(_ row: FTS5Row) -> Int32 {
        var rows: Int64 = 0
        var tokens: Int64 = 0
        var code = row.rowCount(&rows)
        if code == SQLiteResultCode.ok.rawValue { code = row.columnTotalSize(-1, &tokens) }
        guard code == SQLiteResultCode.ok.rawValue else { return code }
        var phraseRows: [Int64] = []
        if matchCount > 1 {
            for phrase in 0..<matchCount {
                var hits: Int64 = 0
                code = row.rowCount(ofPhrase: Int32(phrase), &hits)
                guard code == SQLiteResultCode.ok.rawValue else { return code }
                phraseRows.append(hits)
            }
        }
        start(rowCount: rows, tokenCount: tokens, matchPhraseRows: phraseRows)
        return SQLiteResultCode.ok.rawValue
    }

    func visitRow(_ row: FTS5Row) -> Int32 {
        if !isStarted {
            let code = start(row)
            guard code == SQLiteResultCode.ok.rawValue else { return code }
        }
        beginRow()
        var instanceCount: Int32 = 0
        var code = row.instanceCount(&instanceCount)
        guard code == SQLiteResultCode.ok.rawValue else { return code }
        for instance in 0..<instanceCount {
            var phrase: Int32 = 0
            var column: Int32 = 0
            var offset: Int32 = 0
            code = row.instance(instance, phrase: &phrase, column: &column, offset: &offset)
            guard code == SQLiteResultCode.ok.rawValue else { return code }
            recordHit(ofPhrase: Int(phrase), inColumn: Int(column))
        }
        return endRow(rowid: row.rowid) { size in row.columnSize(-1, &size) }
    }
}
