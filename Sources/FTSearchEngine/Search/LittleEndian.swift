/// Fixed-width little-endian integers: the one codec of the caches' blobs (``ResultCache``'s
/// rankings, ``Vocabulary``'s record counts).
enum LittleEndian {
    /// Appends the `byteCount` low bytes of `value` to `bytes`, least significant first.
    static func append(_ value: UInt64, byteCount: Int, to bytes: inout [UInt8]) {
        for shift in 0..<byteCount {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * shift)))
        }
    }

    /// The number in the `byteCount` bytes of `bytes` from `start`, least significant first.
    static func value(in bytes: [UInt8], at start: Int, byteCount: Int) -> UInt64 {
        (0..<byteCount).reduce(0) { $0 | UInt64(bytes[start + $1]) << (8 * $1) }
    }
}
