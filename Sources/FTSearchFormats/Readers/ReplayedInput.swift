/// A byte source that hands out bytes already read from another source (to sniff its format),
/// then goes on reading that source, so nothing peeked at is lost.
package final class ReplayedInput: ByteSource {
    private let prefix: [UInt8]
    private var offset = 0
    private let rest: any ByteSource

    package init(prefix: [UInt8], rest: any ByteSource) {
        self.prefix = prefix
        self.rest = rest
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard offset < prefix.count else { return try rest.read(into: buffer) }
        let count = min(buffer.count, prefix.count - offset)
        prefix.withUnsafeBytes { bytes in
            buffer.copyMemory(
                from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
        }
        offset += count
        return count
    }
}
