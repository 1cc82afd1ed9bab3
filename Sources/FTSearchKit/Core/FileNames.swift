#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths and names of files, as the file system gives them.
enum FileNames {
    /// The folder `path` is in: `.` for a bare name, `/` for a file at the root.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// What giving a file a second name came to (see ``addName(_:to:)``).
    enum Linking: Equatable {
        /// The file has the name too.
        case linked
        /// Another file has the name.
        case taken
        /// The file system has no hard links (FAT, some network shares).
        case unsupported(code: Int32)
        /// Another failure, with its `errno`.
        case failed(code: Int32)
    }

    /// Gives `file` the name `name` too, unless a file has that name: one `link(2)`, which
    /// checks and names at once, where the file system has hard links.
    static func addName(_ name: String, to file: String) -> Linking {
        if link(file, name) == 0 { return .linked }
        let code = errno
        switch code {
        case EEXIST: return .taken
        case EPERM, ENOTSUP: return .unsupported(code: code)
        default: return .failed(code: code)
        }
    }
}
