import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a connection waits when another connection holds the lock it needs
/// (https://sqlite.org/c3ref/busy_handler.html).
///
/// In WAL mode readers never wait (https://sqlite.org/wal.html#concurrency); what waits is a
/// second writer, for the write lock, which one connection holds from `BEGIN IMMEDIATE` to
/// `COMMIT`.
public enum LockWaiting: Sendable {
    /// Wait for as long as the other connection holds the lock; after ``noticeDelay`` call
    /// `onWaiting`, once per wait, with the process that holds it (when it can be told) and
    /// the database file.
    case untilFree(onWaiting: @Sendable (LockHolder?, String) -> Void)
    /// Give up at once: the statement fails with `SQLITE_BUSY`.
    case failAtOnce
    /// Wait at most this many milliseconds, then fail with `SQLITE_BUSY`.
    case atMost(milliseconds: Int)

    /// How long a wait lasts before ``untilFree(onWaiting:)`` tells of it.
    public static let noticeDelay: Duration = .seconds(1)

    /// Waits for as long as it takes, saying nothing.
    public static let untilFree = LockWaiting.untilFree(onWaiting: { _, _ in })
}

/// The process that holds a database's write lock, as the operating system reports it
/// (Linux's `/proc/locks`): the lock SQLite takes on byte 120 of the `-shm` file in WAL mode
/// (https://sqlite.org/walformat.html#the_wal_index_file_format).
public struct LockHolder: Sendable, Equatable, CustomStringConvertible {
    /// The process id.
    public let processID: Int32
    /// Its command line, when it can be read.
    public let command: String?

    /// `process 4242 (ftsearch import people.csv)`.
    public var description: String {
        "process \(processID)" + (command.map { " (\($0))" } ?? "")
    }

    /// The process holding the write lock of the WAL database at `path`, or nil when none does
    /// (or it cannot be told).
    package static func writer(ofDatabaseAt path: String) -> LockHolder? {
        #if os(Linux)
            var status = stat()
            guard stat(path + "-shm", &status) == 0,
                let locks = readFile("/proc/locks")
            else { return nil }
            let inode = ":\(status.st_ino) "
            for line in locks.split(separator: "\n") where line.contains(inode) {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                // "1: POSIX  ADVISORY  WRITE 4242 00:2f:1234 120 120"
                guard fields.count >= 8, fields[3] == "WRITE", fields[6] == "120",
                    fields[7] == "120", let pid = Int32(fields[4]), pid != getpid()
                else { continue }
                return LockHolder(processID: pid, command: commandLine(of: pid))
            }
        #endif
        return nil
    }

    private static func commandLine(of pid: Int32) -> String? {
        guard let text = readFile("/proc/\(pid)/cmdline"), !text.isEmpty else { return nil }
        var words = text.split(separator: "\0").map(String.init)
        if let program = words.first, let slash = program.lastIndex(of: "/") {
            words[0] = String(program[program.index(after: slash)...])
        }
        let line = String(
            words.joined(separator: " ").unicodeScalars.map {
                $0.properties.generalCategory == .control ? " " : Character($0)
            })
        return line.count > 120 ? String(line.prefix(117)) + "..." : line
    }

    private static func readFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The state of one connection's busy handler: the policy, and when the current wait began.
final class BusyWaiter {
    var policy: LockWaiting
    let path: String
    private var started: ContinuousClock.Instant = .now
    private var hasNoticed = false

    init(policy: LockWaiting, path: String) {
        self.policy = policy
        self.path = path
    }

    /// Whether SQLite should try again; sleeps a little first. `count` is 0 on a wait's first
    /// call.
    func shouldRetry(count: Int32) -> Bool {
        if count == 0 {
            started = .now
            hasNoticed = false
        }
        let waited = ContinuousClock.now - started
        switch policy {
        case .failAtOnce:
            return false
        case .atMost(let milliseconds):
            if waited >= .milliseconds(milliseconds) { return false }
        case .untilFree(let onWaiting):
            if !hasNoticed && waited >= LockWaiting.noticeDelay {
                hasNoticed = true
                onWaiting(LockHolder.writer(ofDatabaseAt: path), path)
            }
        }
        // SQLite's own delays: short at first, then 100 ms (https://sqlite.org/c3ref/busy_timeout.html).
        let delays: [Int32] = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50]
        let delay = count < delays.count ? delays[Int(count)] : 100
        usleep(useconds_t(delay) * 1000)
        return true
    }
}

/// The C busy handler: hands SQLite's call to the connection's ``BusyWaiter``.
let busyHandler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, count in
    guard let context else { return 0 }
    return Unmanaged<BusyWaiter>.fromOpaque(context).takeUnretainedValue()
        .shouldRetry(count: count) ? 1 : 0
}

/// A write that could not start because another connection holds the database's write lock,
/// and this one was told not to wait (``LockWaiting/failAtOnce``) or waited its limit. Nothing
/// was written.
public struct DatabaseBusyError: Error, Sendable, CustomStringConvertible {
    /// The database file.
    public let path: String
    /// The process holding the write lock, when it can be told.
    public let holder: LockHolder?

    package init(path: String, holder: LockHolder?) {
        self.path = path
        self.holder = holder
    }

    /// `PATH is being written by process 4242 (ftsearch import people.csv)`.
    public var description: String {
        "\(path) is being written by " + (holder?.description ?? "another process")
    }
}
