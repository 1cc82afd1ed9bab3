#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a reader's bytes come from: a file, standard input, or memory.
///
/// An import reads its sources on a thread of its own, one read at a time; a source it has
/// been given is its own until the import returns, and after an import that failed it may
/// still be read up to a few hundred records further.
public protocol ByteSource: AnyObject {
    /// Fills the start of `buffer` with the next bytes of the input.
    ///
    /// - Returns: How many bytes were written; 0 only at the end of the input.
    /// - Throws: ``InputError`` when the operating system fails to read.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
}

/// An input that cannot be opened or read.
public struct InputError: Error, Equatable, Sendable {
    /// Why an input could not be used.
    public enum Kind: Equatable, Sendable {
        /// No such file.
        case missing
        /// The file exists but may not be read, or is a directory.
        case unreadable
        /// Reading failed part-way.
        case readFailed
    }

    /// Why the input could not be used.
    public var kind: Kind
    /// The path as the user gave it (`-` for standard input).
    public var path: String
    /// The operating system's explanation.
    public var reason: String

    /// Creates an input error.
    public init(kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }
}

/// An input file read with `read(2)`: a path on disk, or standard input for `-`.
public final class InputFile: ByteSource {
    /// The path as given, `-` for standard input.
    public let path: String
    /// The size in bytes of a regular file; `nil` for pipes and terminals.
    public let size: Int64?
    private let descriptor: Int32

    /// Opens `path` for reading; `-` means standard input.
    ///
    /// - Throws: ``InputError`` with kind `.missing` or `.unreadable`.
    public init(path: String) throws(InputError) {
        self.path = path
        if path == "-" {
            descriptor = STDIN_FILENO
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 {
                let code = errno
                throw InputError(
                    kind: code == ENOENT ? .missing : .unreadable, path: path,
                    reason: Self.describe(code))
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            size = nil
            return
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            if descriptor != STDIN_FILENO { close(descriptor) }
            throw InputError(kind: .unreadable, path: path, reason: "is a directory")
        }
        size = (status.st_mode & S_IFMT) == S_IFREG ? Int64(status.st_size) : nil
    }

    deinit {
        if descriptor != STDIN_FILENO { close(descriptor) }
    }

    /// Reads the next bytes of the file with `read(2)`, retrying when interrupted.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw InputError(kind: .readFailed, path: path, reason: Self.describe(errno))
        }
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}

/// Bytes held in memory, handed out in chunks of at most `chunkSize` (small chunks let tests
/// exercise records that straddle buffer boundaries).
public final class MemoryInput: ByteSource {
    private let bytes: [UInt8]
    private let chunkSize: Int
    private var offset = 0

    /// Serves `bytes`, at most `chunkSize` at a time.
    public init(_ bytes: [UInt8], chunkSize: Int = 1 << 16) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        self.bytes = bytes
        self.chunkSize = chunkSize
    }

    /// Serves the UTF-8 bytes of `text`, at most `chunkSize` at a time.
    public convenience init(_ text: String, chunkSize: Int = 1 << 16) {
        self.init(Array(text.utf8), chunkSize: chunkSize)
    }

    /// Copies the next bytes, at most `chunkSize` of them.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = min(buffer.count, chunkSize, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(
                from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
        }
        offset += count
        return count
    }
}

#if canImport(Glibc)
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    private let systemRead = Darwin.read
#endif
