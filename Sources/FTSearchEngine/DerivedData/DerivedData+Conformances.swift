import FTSearchSQLite

/// A kind's full-text indexes, derived from its records.
extension IndexSync: DerivedData {
    var tables: [String] { indexes.map(\.name) }

    func problems(in database: Database, scratch: Database) throws -> [DatabaseProblem] {
        try indexes.filter { try !isConsistent($0, in: scratch) }.map {
            .indexMismatch(index: $0.name, table: kind.tableName)
        }
    }

    /// Whether FTS5's integrity check of `index`, run in `database`, passes.
    private func isConsistent(_ index: FullTextIndex, in database: Database) throws -> Bool {
        do {
            try database.execute(sql: integrityCheckSQL(of: index))
            return true
        } catch  where error.isCorruption {
            return false
        }
    }

    func rebuild(in database: Database) throws {
        // FTS5's rebuild starts the structure record over, and may give an index the record it
        // had before writes since; settings written change its cookie, so that nothing kept at
        // an earlier record (see IndexStructure) outlives it.
        try withBulkSettings(in: database) {
            try database.execute(sql: rebuildSQL)
        }
    }

    func optimize(in database: Database) throws {
        try database.execute(sql: optimizeSQL)
    }
}

/// An index's row sizes, derived from its `%_docsize`.
extension RowSizes: DerivedData {
    var tables: [String] { [table] }

    func problems(in database: Database, scratch: Database) throws -> [DatabaseProblem] {
        try isConsistent(in: database) ? [] : [.rowSizesMismatch(table: table, index: index.name)]
    }

    func rebuild(in database: Database) throws {
        try rebuildAll(in: database)
    }
}

extension SortCodes {
    /// Every kind's sort codes and the map they are made with, derived from the records'
    /// names: made again together, since one map codes every kind.
    struct Tables: DerivedData {
        var tables: [String] { Kind.allCases.map { SortCodes(of: $0).table } + ["sort_code_map"] }

        func problems(in database: Database, scratch: Database) throws -> [DatabaseProblem] {
            try Kind.allCases.map(SortCodes.init(of:)).compactMap { codes -> DatabaseProblem? in
                try codes.isConsistent(in: database)
                    ? nil : .sortCodesMismatch(table: codes.table, records: codes.kind.tableName)
            }
        }

        func rebuild(in database: Database) throws {
            try SortCodes.rebuildAll(in: database)
        }
    }
}

extension ResultCache {
    /// The kept rankings: a cache keyed by the structure records it was ranked at, so it never
    /// disagrees; made again by forgetting it, and forgotten when the indexes are merged.
    struct Table: DerivedData {
        var tables: [String] { ["result_cache"] }

        func problems(in database: Database, scratch: Database) throws -> [DatabaseProblem] {
            []
        }

        func rebuild(in database: Database) throws {
            try ResultCache.forgetAll(in: database)
        }

        func optimize(in database: Database) throws {
            // Merging rewrites every index's structure record: no kept ranking is current now.
            try ResultCache.forgetAll(in: database)
        }
    }
}

extension Vocabulary {
    /// The kept vocabularies: a cache keyed by the structure record it was read at, so it
    /// never disagrees; made again by forgetting it, and forgotten when the indexes are
    /// merged (no search would read its rows again).
    struct Table: DerivedData {
        var tables: [String] { ["vocabulary_cache"] }

        func problems(in database: Database, scratch: Database) throws -> [DatabaseProblem] {
            []
        }

        func rebuild(in database: Database) throws {
            try database.execute(sql: "DELETE FROM vocabulary_cache")
        }

        func optimize(in database: Database) throws {
            try rebuild(in: database)
        }
    }
}
