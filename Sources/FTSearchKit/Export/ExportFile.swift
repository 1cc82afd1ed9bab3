#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written through a temporary file beside it, which takes the file's name only when
/// ``commit()`` is called: an interrupted export never leaves half a file under that name.
///
/// Without `overwrite`, an existing file is refused when the export starts, and again, atomically,
/// at the end (the temporary file is hard-linked to the name, which fails if a file appeared
/// meanwhile). An uncommitted temporary file is removed when the value is released.
package final class ExportFile: ByteSink {
    /// The file's final path.
    package let path: String
    private let overwrite: Bool
    private let temporaryPath: String
    private let output: FileDescriptorOutput
    private var isOpen = true
    private var isCommitted = false

    /// Creates the temporary file beside `path`.
    ///
    /// - Throws: ``OutputError`` of kind `.exists` when `path` exists and `overwrite` is false
    ///   (or it is a folder), `.cannotCreate` when the temporary file cannot be made.
    package init(path: String, overwrite: Bool) throws(OutputError) {
        self.path = path
        self.overwrite = overwrite
        var status = stat()
        if stat(path, &status) == 0 {
            if (status.st_mode & S_IFMT) == S_IFDIR {
                throw OutputError(kind: .exists, path: path, reason: "is a directory")
            }
            if !overwrite { throw Self.taken(path) }
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var attempt = 0
        while true {
            let candidate = "\(folder).\(name).\(getpid())-\(attempt).tmp"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 {
                temporaryPath = candidate
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
        if !isCommitted { unlink(temporaryPath) }
    }

    /// Writes `bytes` to the temporary file.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        try output.write(bytes)
    }

    /// Flushes the temporary file to disk and gives it the final name.
    ///
    /// - Throws: ``OutputError`` of kind `.exists` when, without `overwrite`, a file took the
    ///   name meanwhile; `.writeFailed` when the data cannot be flushed or the file renamed.
    package func commit() throws(OutputError) {
        if fsync(output.descriptor) != 0 { throw .systemError(.writeFailed, path: path) }
        closeDescriptor()
        if overwrite {
            guard rename(temporaryPath, path) == 0 else {
                throw .systemError(.writeFailed, path: path)
            }
        } else {
            try renameUnlessTaken()
        }
        isCommitted = true
    }

    /// Gives the temporary file its final name unless a file has it: atomically, with a hard
    /// link that fails if the name is taken, where the file system has hard links; else by
    /// looking first.
    private func renameUnlessTaken() throws(OutputError) {
        if link(temporaryPath, path) == 0 {
            unlink(temporaryPath)
            return
        }
        let code = errno
        let hasNoHardLinks = code == EPERM || code == ENOTSUP
        if code == EEXIST || hasNoHardLinks && access(path, F_OK) == 0 { throw Self.taken(path) }
        guard hasNoHardLinks else { throw .systemError(.writeFailed, path: path, code: code) }
        guard rename(temporaryPath, path) == 0 else { throw .systemError(.writeFailed, path: path) }
    }

    private static func taken(_ path: String) -> OutputError {
        OutputError(kind: .exists, path: path, reason: "already exists")
    }

    private func closeDescriptor() {
        guard isOpen else { return }
        isOpen = false
        close(output.descriptor)
    }
}
