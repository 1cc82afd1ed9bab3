#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
public import FTSearchKit

/// An output writer takes an export's bytes as they come (see `ftsearch export`).
extension OutputWriter: ByteSink {
    /// Appends `bytes` to the output, sending it on as the buffering asks.
    ///
    /// - Throws: ``OutputError`` when an earlier write to the file descriptor failed (a closed
    ///   pipe), so a long export stops instead of producing output nobody reads.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        guard writeErrorNumber == nil else {
            throw OutputError(
                kind: .writeFailed, path: "standard output",
                reason: String(cString: strerror(writeErrorNumber ?? EIO)).lowercased())
        }
        write(bytes: bytes)
    }
}
