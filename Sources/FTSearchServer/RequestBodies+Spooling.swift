import FTSearchKit
import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RequestBodies {
    /// Receives `body` into a temporary file beside the database, then runs `work` on the
    /// pool's writer with that file as the bytes it reads: an import of any size in constant
    /// memory, and one that holds the writer only for as long as its own data takes to apply,
    /// however slowly its client sends (docs/reliability.md: Fair sharing).
    ///
    /// The file is unlinked as soon as it is made, so nothing is left behind whatever happens.
    ///
    /// - Throws: What reading the body throws (408, 413...); 507 when the disk has no room for
    ///   it; else what `work` throws.
    func spooled<T: Sendable>(
        _ body: RequestBody, limit: Int, to pool: SearchIndexPool,
        _ work: @escaping @Sendable (SearchIndex, sending any ByteSource) throws -> T
    ) async throws -> T {
        if let reason = pool.readOnlyReason {
            // Nothing to spool for: say so before the body is read.
            throw ReadOnlyDatabaseError(path: pool.path, reason: reason, change: "import")
        }
        let spool = try SpoolFile(besideDatabaseAt: pool.path)
        try await forEachChunk(of: body, limit: limit) { chunk in
            try spool.append(chunk)
            return true
        }
        return try await pool.write { index in
            try work(index, try InputFile(path: spool.readablePath))
        }
    }
}

/// A temporary file that exists only through its descriptor: made in the database's folder
/// (a disk, where `/tmp` may be memory) and unlinked at once; closed when released.
private final class SpoolFile: Sendable {
    private let descriptor: Int32

    init(besideDatabaseAt databasePath: String) throws {
        let folder =
            databasePath.lastIndex(of: "/").map { String(databasePath[..<$0]) } ?? "."
        // mkstemp(3) replaces the template's last six characters (all `X`) with a unique name.
        let unique = String(repeating: "X", count: 6)
        var template = ((folder.isEmpty ? "/" : folder + "/") + ".ftsearch-upload-" + unique)
            .utf8CString
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw SpoolError(code: errno, action: "create a temporary file in \(folder)")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// A path that opens the file anew (Linux's `/proc/self/fd`), from the start.
    var readablePath: String { "/proc/self/fd/\(descriptor)" }

    func append(_ chunk: ByteBuffer) throws {
        try chunk.withUnsafeReadableBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw SpoolError(code: errno, action: "store the request body")
                }
                offset += written
            }
        }
    }
}

/// The system failed to keep a request body on disk.
struct SpoolError: Error, CustomStringConvertible {
    var code: Int32
    var action: String

    /// Whether the disk (or a quota) had no room.
    var isDiskFull: Bool { [ENOSPC, EDQUOT, EFBIG].contains(code) }

    var description: String { "could not \(action): \(String(cString: strerror(code)))" }
}
