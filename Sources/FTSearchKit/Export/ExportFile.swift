import FTSearchFormats
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file an export writes, written only where the user points.
///
/// - A regular file (or a path where none exists yet) is written through a temporary file
///   beside it, which takes the file's name only when ``commit()`` is called: an interrupted
///   export never leaves half a file under that name. A symbolic link is followed: the file it
///   names is replaced, keeping that file's permission bits (and owner, where allowed), and the
///   link stays a link. Without `overwrite`, an existing file is refused when the export
///   starts, and again, atomically, at the end (the temporary file is hard-linked to the name,
///   which fails if a file appeared meanwhile).
/// - Anything else — a character or block device (`/dev/null`, a tape), a FIFO, a socket — and
///   every path under `/dev/` or `/proc/` (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`) is
///   opened and written directly: nothing is renamed over it, and its write errors are reported
///   (`/dev/full`: no space left on device). There is nothing to replace, so `overwrite` is not
///   needed.
///
/// An uncommitted temporary file is removed when the value is released.
final class ExportFile: ByteSink {
    /// The file's path, as given.
    let path: String
    private let overwrite: Bool
    /// The temporary file and the path it is renamed to, or nil when writing directly.
    private let replacement: (temporary: String, final: String)?
    private let output: FileDescriptorOutput
    private var isOpen = true
    private var isCommitted = false

    /// Opens `path` for the export: a temporary file beside a regular file, or the path itself.
    ///
    /// - Throws: ``OutputError`` of kind `.exists` when `path` is a regular file and `overwrite`
    ///   is false (or it is a folder), `.cannotCreate` when the file cannot be opened or the
    ///   temporary file cannot be made.
    init(path: String, overwrite: Bool) throws(OutputError) {
        self.path = path
        self.overwrite = overwrite
        var status = stat()
        let exists = stat(path, &status) == 0
        let type = status.st_mode & S_IFMT
        if exists && type == S_IFDIR {
            throw OutputError(kind: .exists, path: path, reason: "is a directory")
        }
        if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") || exists && type != S_IFREG {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else { throw .systemError(.cannotCreate, path: path) }
            replacement = nil
            output = FileDescriptorOutput(descriptor: descriptor, path: path)
            return
        }
        if exists && !overwrite { throw Self.taken(path) }
        let final = Self.followingLinks(path)
        let slash = final.lastIndex(of: "/")
        let folder = slash.map { String(final[...$0]) } ?? ""
        let name = slash.map { String(final[final.index(after: $0)...]) } ?? final
        var attempt = 0
        while true {
            let candidate = "\(folder).\(name).\(getpid())-\(attempt).tmp"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 {
                if exists {
                    // The replacement keeps the replaced file's permissions and, where this
                    // process may give it, its owner.
                    _ = fchown(descriptor, status.st_uid, status.st_gid)
                    _ = fchmod(descriptor, status.st_mode & 0o7777)
                }
                replacement = (candidate, final)
                output = FileDescriptorOutput(descriptor: descriptor, path: path)
                return
            }
            guard errno == EEXIST, attempt < 1000 else {
                throw .systemError(.cannotCreate, path: path)
            }
            attempt += 1
        }
    }

    deinit {
        closeDescriptor()
        if !isCommitted, let replacement { unlink(replacement.temporary) }
    }

    /// Writes `bytes` to the temporary file, or to the path itself.
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        try output.write(bytes)
    }

    /// Flushes the data to disk and, for a regular file, gives the temporary file the final
    /// name.
    ///
    /// - Throws: ``OutputError`` of kind `.exists` when, without `overwrite`, a file took the
    ///   name meanwhile; `.writeFailed` when the data cannot be flushed or the file renamed.
    func commit() throws(OutputError) {
        guard let replacement else {
            // A device or a FIFO may not sync (EINVAL); what it could not take, write reported.
            if fsync(output.descriptor) != 0 && errno != EINVAL && errno != EROFS {
                throw .systemError(.writeFailed, path: path)
            }
            try closeDescriptorReportingErrors()
            isCommitted = true
            return
        }
        if fsync(output.descriptor) != 0 { throw .systemError(.writeFailed, path: path) }
        try closeDescriptorReportingErrors()
        if overwrite {
            guard rename(replacement.temporary, replacement.final) == 0 else {
                throw .systemError(.writeFailed, path: path)
            }
        } else {
            try renameUnlessTaken(replacement.temporary, to: replacement.final)
        }
        isCommitted = true
    }

    /// `path` with every symbolic link at its end followed, also to a file that does not exist
    /// yet (a link naming where the export should go).
    private static func followingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else {
                return current
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return current }
            let target = String(
                decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") {
                current = target
            } else {
                let folder = current.lastIndex(of: "/").map { String(current[...$0]) } ?? ""
                current = folder + target
            }
        }
        return current
    }

    /// Gives the temporary file its final name unless a file has it: atomically, with a hard
    /// link that fails if the name is taken, where the file system has hard links; else by
    /// looking first.
    private func renameUnlessTaken(_ temporary: String, to final: String) throws(OutputError) {
        switch FileNames.addName(final, to: temporary) {
        case .linked:
            unlink(temporary)
        case .taken:
            throw Self.taken(path)
        case .unsupported:
            if access(final, F_OK) == 0 { throw Self.taken(path) }
            guard rename(temporary, final) == 0 else {
                throw .systemError(.writeFailed, path: path)
            }
        case .failed(let code):
            throw .systemError(.writeFailed, path: path, code: code)
        }
    }

    private static func taken(_ path: String) -> OutputError {
        OutputError(kind: .exists, path: path, reason: "already exists")
    }

    private func closeDescriptorReportingErrors() throws(OutputError) {
        guard isOpen else { return }
        isOpen = false
        if close(output.descriptor) != 0 && errno != EINTR {
            throw .systemError(.writeFailed, path: path)
        }
    }

    private func closeDescriptor() {
        guard isOpen else { return }
        isOpen = false
        close(output.descriptor)
    }
}
