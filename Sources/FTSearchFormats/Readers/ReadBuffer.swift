/// A growable window onto the unread bytes of a ``ByteSource``, shared by all readers.
///
/// Readers scan ``window`` (the bytes not yet consumed), ``consume(_:)`` what they have turned
/// into records, and call ``refill()`` when a record runs past the end of the window. A refill
/// keeps the unconsumed bytes, so a reader simply scans its unfinished record again from the
/// start. Each refill at least doubles the unconsumed bytes (or reaches the end of the input),
/// so re-scanning costs at most twice the length of a record, however small the reads are.
///
/// The buffer is a reference type owned by one reader; its memory is freed in `deinit`.
package final class ReadBuffer {
    /// The default capacity: large enough that re-scans at window boundaries are negligible.
    package static let defaultCapacity = 1 << 16

    private let source: any ByteSource
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var start = 0
    private var end = 0
    /// The offset in the input of `storage[0]`.
    private var storageOffset: Int64 = 0

    /// Whether the source has reported its end; no refill can add bytes any more.
    package private(set) var isExhausted = false
    /// A read failure that came after some bytes were read: thrown by the next refill, so the
    /// reader first gets every byte that could be read.
    private var deferredFailure: InputError?

    package init(source: any ByteSource, capacity: Int = ReadBuffer.defaultCapacity) {
        precondition(capacity > 0, "capacity must be positive")
        self.source = source
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes read but not yet consumed. Valid until the next ``refill()``.
    package var window: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage + start, count: end - start)
    }

    /// The offset in the input of the first byte of ``window``; also how many bytes were consumed.
    package var windowOffset: Int64 { storageOffset + Int64(start) }

    /// Marks the first `count` bytes of ``window`` as consumed.
    package func consume(_ count: Int) {
        precondition(count >= 0 && count <= end - start, "cannot consume bytes that were not read")
        start += count
    }

    /// Reads more bytes after the current window, keeping the unconsumed ones.
    ///
    /// - Returns: `false` when the source is exhausted and nothing was added.
    /// - Throws: ``InputError`` when the source fails before any byte could be added.
    @discardableResult
    package func refill() throws(InputError) -> Bool {
        if let deferredFailure { throw deferredFailure }
        guard !isExhausted else { return false }
        let pending = end - start
        moveWindowToFront()
        if end == capacity { grow() }
        let wanted = max(1, pending)
        var added = 0
        while added < wanted && end < capacity {
            let free = UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end)
            let count: Int
            do {
                count = try source.read(into: free)
            } catch {
                guard added > 0 else { throw error }
                deferredFailure = error
                break
            }
            if count == 0 {
                isExhausted = true
                break
            }
            end += count
            added += count
        }
        return added > 0
    }

    /// Makes sure at least `count` bytes are in the window unless the input ends sooner.
    ///
    /// - Returns: Whether `count` bytes are available.
    package func ensureAvailable(_ count: Int) throws(InputError) -> Bool {
        while end - start < count {
            guard try refill() else { return false }
        }
        return true
    }

    /// Skips a UTF-8 byte order mark at the current position, if there is one.
    package func skipByteOrderMark() throws(InputError) {
        _ = try ensureAvailable(3)
        let bytes = window
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            consume(3)
        }
    }

    private func moveWindowToFront() {
        guard start > 0 else { return }
        let pending = end - start
        if pending > 0 {
            // The regions may overlap; copyMemory has memmove semantics.
            UnsafeMutableRawPointer(storage).copyMemory(from: storage + start, byteCount: pending)
        }
        storageOffset += Int64(start)
        start = 0
        end = pending
    }

    private func grow() {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
        larger.initialize(from: storage, count: end)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }
}
