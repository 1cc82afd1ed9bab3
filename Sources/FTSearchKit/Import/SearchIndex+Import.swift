import FTSearchFormats
public import FTSearchSQLite

/// Importing records: `ftsearch import`.
extension SearchIndex {
    /// Imports the records of `sources`, all in one transaction.
    ///
    /// The sources are read on a thread of their own while the records are written (they are
    /// `sending`: nothing they hold may be used elsewhere meanwhile, this index included).
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
        from sources: sending [ImportSource], options: ImportOptions,
        onSkip: @escaping (RecordProblem) -> Void = { _ in },
        onProgress: @escaping (ImportProgress) -> Void = { _ in }
    ) throws -> ImportSummary {
        try requireWriteAccess(for: "import records")
        var importer = Importer(database: database, options: options, timestamp: clock())
        importer.onSkip = onSkip
        importer.onProgress = onProgress
        return try importer.run(sources)
    }

    /// Imports the records of `files` into the database at `path`, all in one transaction,
    /// creating the database when it is missing.
    ///
    /// ```swift
    /// let summary = try SearchIndex.importFiles(["people.csv"], intoDatabaseAt: "people.db")
    /// print(summary.inserted[.people] ?? 0)
    /// ```
    ///
    /// A database that does not exist yet is built beside `path` (as `PATH-importing-PID`)
    /// and moved into place once the import is whole: every page is written once, where an
    /// import into an existing database writes it to the WAL, then into the file. Other
    /// processes find no database at `path` until then, as before the import began. When
    /// another process creates `path` meanwhile, the files are read again and imported into
    /// its database, as into any existing one (`onSkip` then hears of skipped records again).
    /// Standard input (`-`) and other inputs that cannot be read twice are imported into the
    /// file at `path` from the start, as is a database in a folder whose file system has no
    /// hard links.
    ///
    /// - Parameters:
    ///   - files: The files, in the order to import them; `-` reads standard input.
    ///   - format: The format of every file; `nil` chooses per file from its extension, else
    ///     from its first bytes.
    ///   - path: The database file.
    ///   - options: Kind, replace and skip settings.
    ///   - clock: The current time, for timestamps.
    ///   - lockWaiting: How the import waits while another process writes the database.
    ///   - onSkip: Called for every record skipped with `skipInvalid`.
    ///   - onProgress: Called from time to time during long imports, and during a migration
    ///     of the database that re-indexes every record.
    /// - Returns: What was imported, per kind.
    /// - Throws: ``ImportError`` for bad input; ``DatabaseOpenError`` when the database cannot
    ///   be opened or created; ``ReadOnlyDatabaseError`` when this process cannot write it;
    ///   ``SQLiteError`` when the database fails.
    @discardableResult
    public static func importFiles(
        _ files: [String], format: InputFormat? = nil, intoDatabaseAt path: String,
        options: ImportOptions = ImportOptions(),
        clock: @escaping @Sendable () -> Timestamp = Timestamp.now,
        lockWaiting: LockWaiting = .untilFree,
        onSkip: @escaping (RecordProblem) -> Void = { _ in },
        onProgress: @escaping (ImportProgress) -> Void = { _ in }
    ) throws -> ImportSummary {
        if let build = NewDatabaseBuild(path: path, inputs: files) {
            let sources = try ImportSource.open(files, format: format)
            try createParentDirectories(of: path)
            let outcome = try build.run(clock: clock, sources: sources) { index, sources in
                try index.importRecords(
                    from: sources, options: options, onSkip: onSkip, onProgress: onProgress)
            }
            switch outcome {
            case .published(let summary): return summary
            case .pathTaken, .notStarted: break
            }
        }
        let sources = try ImportSource.open(files, format: format)
        let index = try SearchIndex(
            path: path, mode: .createIfMissing, clock: clock, lockWaiting: lockWaiting,
            onMigrationProgress: onProgress)
        return try index.importRecords(
            from: sources, options: options, onSkip: onSkip, onProgress: onProgress)
    }
}
