import FTSearchSQLite

/// Indexes built on first use: the substring index of a kind exists only once a substring
/// search of that kind has needed it (building it at every import took two thirds of the
/// import's time, for one match mode).
extension SearchIndex {
    /// Builds the indexes that searching `kinds` in `match` mode needs and the database does
    /// not have yet (the substring index, for `.substring`), in one immediate transaction; does
    /// nothing when they exist. An index an older ftsearch built with other options (a
    /// substring index without its 1- and 2-letter prefix indexes) is built again the same way
    /// when this process can write the database, and otherwise searched as it is: it finds the
    /// same records, only slower.
    ///
    /// ``search(_:)`` calls it, so a caller needs it only to show progress, or to build before
    /// the first search: the first substring search of a million people spends about 20
    /// seconds here, once.
    ///
    /// - Parameters:
    ///   - match: The match mode to be searched.
    ///   - kinds: The kinds to be searched.
    ///   - onProgress: Hears what is built and how far it has come, only when something is
    ///     built.
    /// - Throws: ``ReadOnlyDatabaseError`` when an index is missing and this process cannot
    ///   write the database (nothing else needs writing to be searched); ``SQLiteError`` when
    ///   SQLite fails.
    public func prepareIndexes(
        for match: MatchMode, of kinds: Set<Kind>,
        onProgress: (IndexBuildProgress) -> Void = { _ in }
    ) throws {
        let builder = IndexBuilder(database: database)
        let needed = Self.indexes(serving: match, of: kinds)
        let missing = try builder.missing(
            from: needed, replacingOutdated: readOnlyReason == nil)
        guard let first = missing.first else { return }
        let kindNames = missing.map(\.kind.rawValue).joined(separator: " and ")
        try requireWriteAccess(
            for: "build the \(first.index.description) of \(kindNames)",
            advice: "a \(match.rawValue) search needs it: run one \(match.rawValue) search as a "
                + "user who may write the file (the index is built once and kept), or search "
                + "with prefix matching (the default)")
        try database.inTransaction(.immediate) {
            // Another process may have built some while this one waited for the write lock.
            try builder.build(
                try builder.missing(from: needed, replacingOutdated: true), onProgress: onProgress)
        }
    }

    /// Builds the indexes that `request` needs and the database lacks: those of its match mode
    /// and kinds, or none when it lists every record (no index is read then).
    ///
    /// - Parameters:
    ///   - request: The search to be run.
    ///   - onProgress: Hears what is built and how far it has come, only when something is
    ///     built.
    public func prepareIndexes(
        for request: SearchRequest, onProgress: (IndexBuildProgress) -> Void = { _ in }
    ) throws {
        guard !request.listsEverything else { return }
        try prepareIndexes(for: request.match, of: request.kinds, onProgress: onProgress)
    }

    /// Whether `request` needs an index the database does not have yet, and with
    /// `replacingOutdated` also one it has only as an older ftsearch defined it (which a writer
    /// builds again, see ``prepareIndexes(for:of:onProgress:)``; a caller that cannot write
    /// searches that one as it is).
    func lacksIndexes(for request: SearchRequest, replacingOutdated: Bool) throws -> Bool {
        guard !request.listsEverything else { return false }
        return try !IndexBuilder(database: database)
            .missing(
                from: Self.indexes(serving: request.match, of: request.kinds),
                replacingOutdated: replacingOutdated
            ).isEmpty
    }

    /// The indexes that searching `kinds` in `match` mode reads.
    private static func indexes(serving match: MatchMode, of kinds: Set<Kind>)
        -> [IndexBuilder.Target]
    {
        kinds.inOrder.map { IndexBuilder.Target(kind: $0, index: .serving(match, of: $0)) }
    }
}
