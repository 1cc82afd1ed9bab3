import FTSearchSQLite

/// Importing records: `ftsearch import`.
extension SearchIndex {
    /// Imports the records of `sources`, all in one transaction.
    ///
    /// On the first invalid record the import stops and the database is left exactly as it was;
    /// with `options.skipInvalid`, invalid records are reported to `onSkip` and the rest is
    /// imported.
    ///
    /// - Parameters:
    ///   - sources: Readers and the names to report their problems under.
    ///   - options: Kind, replace and skip settings.
    ///   - onSkip: Called for every record skipped with `skipInvalid`.
    ///   - onProgress: Called from time to time during long imports.
    /// - Returns: What was imported, per kind.
    /// - Throws: ``ImportError`` for bad input; ``ReadOnlyDatabaseError`` when this process
    ///   cannot write the database; ``SQLiteError`` when the database fails.
    @discardableResult
    public func importRecords(
        from sources: [ImportSource], options: ImportOptions,
        onSkip: @escaping (RecordProblem) -> Void = { _ in },
        onProgress: @escaping (ImportProgress) -> Void = { _ in }
    ) throws -> ImportSummary {
        try requireWriteAccess(for: "import records")
        var importer = Importer(database: database, options: options, timestamp: clock())
        importer.onSkip = onSkip
        importer.onProgress = onProgress
        return try importer.run(sources)
    }
}
