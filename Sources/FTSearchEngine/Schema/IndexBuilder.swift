package import FTSearchSQLite

/// Builds the full-text indexes that a kind can have but does not have yet (the substring
/// index, on the first substring search), or has only as an older ftsearch defined them:
/// creates each table, fills it from the content table (``Reindexer``, with the import's bulk
/// settings), and replaces the kind's triggers with ones that keep every index it now has
/// exact; and drops them again. Runs inside the caller's transaction.
package struct IndexBuilder {
    let database: Database

    package init(database: Database) {
        self.database = database
    }

    /// One index of one kind.
    package struct Target {
        package let kind: Kind
        package let index: FullTextIndex

        package init(kind: Kind, index: FullTextIndex) {
            self.kind = kind
            self.index = index
        }
    }

    /// Those of `targets` that the database does not have, and with `replacingOutdated` also
    /// those it has as an earlier ftsearch built them: with other options than
    /// ``FullTextIndex`` gives today (a substring index built before it had prefix indexes), or
    /// without their row sizes (see ``RowSizes``). Such an index finds exactly what today's
    /// does, only slower, so it is worth replacing only where the database can be written.
    package func missing(from targets: [Target], replacingOutdated: Bool) throws -> [Target] {
        // One read transaction for the schema reads: every search asks this first.
        try database.readingOneVersion {
            try targets.filter { target in
                guard let definition = try database.tableDefinition(named: target.index.name)
                else { return true }
                guard replacingOutdated else { return false }
                guard definition.containsBytes(of: target.index.options) else { return true }
                // Outdated, too, when its row sizes table is missing.
                return try database.tableDefinition(named: target.index.sizesTable) == nil
            }
        }
    }

    /// Builds `indexes`, first dropping those the database has with older options.
    package func build(_ indexes: [Target], onProgress: (IndexBuildProgress) -> Void) throws {
        guard let first = indexes.first else { return }
        for target in indexes {
            try drop(target)
        }
        var counts: [Kind: Int] = [:]
        for target in indexes {
            counts[target.kind, default: 0] += try target.kind.recordCount(in: database)
        }
        var progress = IndexBuildProgress(
            index: first.index.description, recordCounts: counts, recordsDone: 0)
        onProgress(progress)
        let fills = indexes.map { IndexSync(kind: $0.kind, indexes: [$0.index]) }
        for fill in fills {
            try database.execute(sql: fill.createIndexesSQL)
        }
        try Reindexer(database: database).indexAllRows(of: fills) { done, _ in
            progress.recordsDone = done
            onProgress(progress)
        }
        for fill in fills {
            for sizes in fill.sizes { try sizes.rebuildAll(in: database) }
        }
        for kind in Kind.allCases where indexes.contains(where: { $0.kind == kind }) {
            let sync = try IndexSync(kind: kind, in: database)
            try database.execute(sql: sync.dropTriggersSQL + sync.createTriggersSQL)
        }
    }

    /// Drops `target` when the database has it, with every kept ranking, and replaces the
    /// kind's triggers with ones that keep the indexes left.
    package func drop(_ target: Target) throws {
        let sync = try IndexSync(kind: target.kind, in: database)
        guard sync.indexes.contains(target.index) else { return }
        let dropped = IndexSync(kind: target.kind, indexes: [target.index])
        try database.execute(sql: sync.dropTriggersSQL + dropped.dropIndexesSQL)
        // An index built again could repeat one of this one's structure records, which kept
        // rankings of records changed since may name.
        try ResultCache.forgetAll(in: database)
        try database.execute(
            sql: try IndexSync(kind: target.kind, in: database).createTriggersSQL)
    }
}
