#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an export's bytes go: a file, standard output, or memory.
public protocol ByteSink: AnyObject {
    /// Writes all of `bytes`.
    ///
    /// - Throws: ``OutputError`` when the bytes cannot be written.
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError)
}

/// An output that cannot be written.
public struct OutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why an output could not be used.
    public enum Kind: Equatable, Sendable {
        /// The file exists and overwriting it was not asked for.
        case exists
        /// The file (or its temporary file) could not be created.
        case cannotCreate
        /// Writing failed part-way (a full disk, a closed pipe).
        case writeFailed
    }

    /// Why the output could not be used.
    public var kind: Kind
    /// The output's path (`-` for standard output).
    public var path: String
    /// The operating system's explanation.
    public var reason: String

    /// Creates an output error.
    public init(kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    /// `PATH: reason`.
    public var description: String { "\(path): \(reason)" }

    package static func systemError(_ kind: Kind, path: String, code: Int32 = errno) -> OutputError
    {
        OutputError(kind: kind, path: path, reason: String(cString: strerror(code)).lowercased())
    }
}

/// An open file descriptor written with `write(2)`: standard output, or an export file.
package final class FileDescriptorOutput: ByteSink {
    /// The name to report errors under (`-` for standard output).
    package let path: String
    package let descriptor: Int32

    /// Writes to `descriptor`, which stays open; `path` names it in errors.
    package init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Standard output.
    package static func standardOutput() -> FileDescriptorOutput {
        FileDescriptorOutput(descriptor: STDOUT_FILENO, path: "-")
    }

    /// Writes all of `bytes`, retrying when interrupted and after short writes.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        var offset = 0
        while offset < bytes.count {
            let count = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                throw .systemError(.writeFailed, path: path, code: count < 0 ? errno : EIO)
            }
        }
    }
}

/// Bytes collected in memory (for tests and small exports).
public final class MemoryOutput: ByteSink {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty output.
    public init() {}

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        self.bytes.append(contentsOf: bytes)
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
#endif
