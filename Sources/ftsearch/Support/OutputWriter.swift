#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// Where a command writes text: a buffered writer over a file descriptor, or an in-memory
/// capture for tests.
///
/// It is a class, so `context.standardOutput.write(...)` works on a `let` context and
/// `print(..., to: &writer)` works with a `var` copy of the reference:
///
/// ```swift
/// context.standardOutput.print("3 matches")
/// var output = context.standardOutput
/// print("ann", "bob", separator: "\t", to: &output)
/// ```
///
/// Not thread-safe: each command run owns its writers.
public final class OutputWriter: TextOutputStream {
    /// When buffered bytes go out to the file descriptor.
    public enum Buffering: Sendable {
        /// Only when the buffer is full or on `flush()`: for pipes and files.
        case full
        /// At the end of every line: for terminals, where people watch the output.
        case line
        /// At every write: for standard error.
        case none
    }

    private enum Destination {
        case fileDescriptor(Int32, Buffering)
        case memory
    }

    private let destination: Destination
    private var buffer: [UInt8] = []
    private static let bufferCapacity = 64 * 1024

    /// The `errno` of the first failed write, after which output is dropped.
    public private(set) var writeErrorNumber: Int32?

    /// A writer over an open file descriptor, which it does not close.
    public init(fileDescriptor: Int32, buffering: Buffering) {
        destination = .fileDescriptor(fileDescriptor, buffering)
        buffer.reserveCapacity(buffering == .full ? Self.bufferCapacity : 256)
    }

    private init(capturing: Void) {
        destination = .memory
    }

    /// A writer that keeps everything written, for ``capturedText``.
    public static func capturing() -> OutputWriter {
        OutputWriter(capturing: ())
    }

    deinit {
        flush()
    }

    /// Everything written so far, for a capturing writer; empty for one over a file descriptor.
    public var capturedText: String {
        guard case .memory = destination else { return "" }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Appends `string` to the output, sending it on as the buffering asks.
    public func write(_ string: String) {
        var string = string
        string.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Appends `bytes` to the output, sending it on as the buffering asks.
    func write(bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        guard case .fileDescriptor(_, let buffering) = destination else { return }
        switch buffering {
        case .full: if buffer.count >= Self.bufferCapacity { flush() }
        case .line: if bytes.contains(UInt8(ascii: "\n")) { flush() }
        case .none: flush()
        }
    }

    /// Writes `items` like the standard library's `print`: separated, then terminated.
    public func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
        write(items.map { String(describing: $0) }.joined(separator: separator) + terminator)
    }

    /// Sends buffered bytes to the file descriptor.
    ///
    /// - Returns: False when writing failed, now or before (see ``writeErrorNumber``).
    @discardableResult
    public func flush() -> Bool {
        guard case .fileDescriptor(let descriptor, _) = destination else { return true }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard writeErrorNumber == nil else { return false }
        return buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(
                    descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    writeErrorNumber = errno
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
