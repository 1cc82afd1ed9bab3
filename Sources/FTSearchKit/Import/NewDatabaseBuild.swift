import FTSearchSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A database that its first import builds beside the path it will have, then moves there
/// whole.
///
/// No process can read a file that is not there yet, so the first import into it needs no
/// write-ahead log: it builds the file under a name of its own (`people.db-importing-1234`,
/// after the process), with SQLite's rollback journal in memory and no syncs, so that every
/// page is written once (in WAL mode each is written to the log, then copied into the file,
/// and the log grows as large as the file). Once the import is whole the file is put in WAL
/// mode, synced, and linked to its path, which fails if another process created the path
/// meanwhile. Until then other processes find no database there, as before the import began;
/// after it, all of it.
///
/// A build that fails, or is interrupted, leaves no database at the path. Interrupted by
/// SIGINT, SIGTERM or SIGHUP it removes its staging file as the process ends (see
/// ``InterruptionCleanup``); the staging file of a process killed otherwise is removed by the
/// next build beside the same path.
struct NewDatabaseBuild {
    /// The path the database will have.
    let path: String
    /// The file the database is built in.
    let stagingPath: String

    /// A build of the database at `path` from the files `inputs`, or nil when it cannot be
    /// done this way: the path (or a WAL or journal of it) exists, or an input cannot be read
    /// twice (standard input, a pipe), as the import must be when another process creates the
    /// database meanwhile.
    init?(path: String, inputs: [String]) {
        guard
            !([path] + Self.companionSuffixes.map { path + $0 }).contains(where: Self.exists),
            inputs.allSatisfy(Self.isRegularFile)
        else { return nil }
        self.path = path
        self.stagingPath = path + Self.stagingInfix + String(getpid())
    }

    /// What a build came to.
    enum Outcome {
        /// The database is at ``path``, with what the import reported.
        case published(ImportSummary)
        /// Another process created ``path`` meanwhile; nothing of the build is left.
        case pathTaken
        /// The build could not start: SQLite could not create the staging file (the folder is
        /// not writable, …), or its file system has no hard links. Nothing was read and
        /// nothing is left.
        case notStarted
    }

    /// Creates the staging file with the latest schema, runs `importRecords` on it with
    /// `sources`, and moves
    /// the finished database to ``path``. When `importRecords` throws, nothing is left.
    func run(
        clock: @escaping @Sendable () -> Timestamp, sources: sending [ImportSource],
        importing importRecords: (SearchIndex, sending [ImportSource]) throws -> ImportSummary
    ) throws -> Outcome {
        removeStagingFilesOfEndedProcesses()
        let interruption = InterruptionCleanup(removing: stagingFiles)
        defer { interruption.end() }
        do {
            guard
                let summary = try build(clock: clock, sources: sources, importing: importRecords)
            else {
                discard()
                return .notStarted
            }
            return try publish() ? .published(summary) : .pathTaken
        } catch {
            discard()
            throw error
        }
    }

    /// The staging file's import, its connection closed on return; nil when SQLite could not
    /// create the file, or the folder's file system cannot link it into place (no hard links:
    /// FAT, some network shares), before anything is read.
    private func build(
        clock: @escaping @Sendable () -> Timestamp, sources: sending [ImportSource],
        importing importRecords: (SearchIndex, sending [ImportSource]) throws -> ImportSummary
    ) throws -> ImportSummary? {
        let database: Database
        do {
            database = try Database(path: stagingPath, mode: .readWriteCreate)
            try database.execute(sql: SearchIndex.writingSettingsSQL)
            try database.configureForSearch()
            // What a file nobody else reads needs instead. The journal only has to make a
            // failed import's rollback work: a crash leaves a staging file that is never used.
            // Not mapped: out of WAL mode, the pages the import reads back (FTS5 merging its
            // segments) would be read through the mapping, and the whole file would count in
            // the process's memory.
            try database.execute(
                sql: "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA mmap_size = 0")
            try Schema.migrator.migrate(database) { _ in }
        } catch {
            return nil
        }
        guard canLink() else { return nil }
        let summary = try importRecords(
            SearchIndex(path: stagingPath, database: database, readOnlyReason: nil, clock: clock),
            sources)
        try database.switchToWAL()
        return summary
    }

    /// Syncs the finished file and links it to ``path``; false when another process created
    /// ``path`` meanwhile. The staging file's name is removed either way.
    private func publish() throws -> Bool {
        defer { discard() }
        try sync(stagingPath)
        switch FileNames.addName(path, to: stagingPath) {
        case .linked:
            try sync(FileNames.folder(of: path))
            return true
        case .taken:
            return false
        case .unsupported(let code), .failed(let code):
            throw DatabaseOpenError.cannotCreate(
                path: path, reason: String(cString: strerror(code)))
        }
    }

    /// Whether the staging file can be given another name in its folder, as ``publish()``
    /// will: a link made and removed at once.
    private func canLink() -> Bool {
        let probe = stagingPath + "-link"
        guard FileNames.addName(probe, to: stagingPath) == .linked else { return false }
        unlink(probe)
        return true
    }

    /// Removes the staging file and whatever SQLite kept beside it.
    func discard() {
        for file in stagingFiles { unlink(file) }
    }

    /// The staging file and the files SQLite may keep beside it.
    private var stagingFiles: [String] {
        ([""] + Self.companionSuffixes).map { stagingPath + $0 }
    }

    // MARK: - Files

    /// What SQLite keeps beside a database file while it writes it.
    private static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Between the database's path and the building process's id in a staging file's name.
    private static let stagingInfix = "-importing-"

    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return path != "-" && stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    private func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0, fsync(descriptor) == 0 || errno == EINVAL else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw DatabaseOpenError.cannotCreate(path: self.path, reason: reason)
        }
        close(descriptor)
    }

    /// Removes the staging files beside ``path`` (and SQLite's files beside them) whose
    /// process has ended: it was killed during its import.
    private func removeStagingFilesOfEndedProcesses() {
        let folder = FileNames.folder(of: path)
        let prefix = path.split(separator: "/").last.map(String.init) ?? path
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix + Self.stagingInfix) else { continue }
            let process = name.dropFirst(prefix.count + Self.stagingInfix.count).prefix {
                $0.isASCII && $0.isNumber
            }
            guard let process = pid_t(process), kill(process, 0) != 0, errno == ESRCH else {
                continue
            }
            unlink(folder + "/" + name)
        }
    }
}

/// Files removed when the process is interrupted while a ``NewDatabaseBuild`` runs.
///
/// While it lasts, SIGINT, SIGTERM and SIGHUP (those whose action is still the default, which
/// ends the process) first remove the files, then end the process by the signal as before; at
/// its ``end()`` the actions are restored. A SIGKILL leaves them, for the next build beside
/// the same path.
private final class InterruptionCleanup {
    private static let signals = [SIGINT, SIGTERM, SIGHUP]
    private var previousActions: [(Int32, sigaction)] = []

    init(removing paths: [String]) {
        #if canImport(Glibc)
            interruptedBuildFiles = paths.map { strdup($0) }
            for signal in Self.signals {
                var previous = sigaction()
                sigaction(signal, nil, &previous)
                // Only a signal that would end the process: its handler is SIG_DFL (nil).
                guard previous.__sigaction_handler.sa_handler == nil else { continue }
                var action = sigaction()
                action.__sigaction_handler.sa_handler = removeFilesAndEnd
                sigemptyset(&action.sa_mask)
                action.sa_flags = Int32(bitPattern: SA_RESETHAND)
                sigaction(signal, &action, nil)
                previousActions.append((signal, previous))
            }
        #endif
    }

    /// Restores the signals' actions and forgets the files.
    func end() {
        for (signal, var previous) in previousActions { sigaction(signal, &previous, nil) }
        previousActions = []
        let files = interruptedBuildFiles
        interruptedBuildFiles = []
        for file in files { free(file) }
    }
}

/// The files ``InterruptionCleanup`` removes: C strings, so that the handler allocates nothing.
nonisolated(unsafe) private var interruptedBuildFiles: [UnsafeMutablePointer<CChar>?] = []

/// Removes the files, then ends the process by `signal` (its action was reset to the default).
private func removeFilesAndEnd(_ signal: Int32) {
    interruptedBuildFiles.withUnsafeBufferPointer { files in
        for case let file? in files { unlink(file) }
    }
    raise(signal)
}
