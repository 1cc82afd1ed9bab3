#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small file the Meilisearch-compatible API keeps beside the database (its tasks, its
/// settings): read whole, replaced whole (written to `path.new`, synced, renamed over).
enum SidecarFile {
    /// The file's text; empty when it does not exist.
    static func contents(of path: String) -> String {
        guard let file = fopen(path, "rb") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces the file with `text`.
    ///
    /// - Returns: Why it could not (the old file is left as it was), or nil.
    static func replace(_ path: String, with text: String) -> String? {
        let temporary = path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_TRUNC | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return failure(errno) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        let code = errno
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            let reason = failure(written >= 0 && written < bytes.count ? ENOSPC : code)
            unlink(temporary)
            return reason
        }
        return nil
    }

    static func failure(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
