import Dispatch
import FTSearchKit
import Hummingbird
import Synchronization

/// A request body as the library's importer reads it: the request's task sends chunks as they
/// arrive, the import's reading thread reads them, blocking until the next one comes. A few
/// chunks wait at most, so an upload is never held in memory.
final class BodyPipe: ByteSource, @unchecked Sendable {
    private struct State {
        var chunks: [ByteBuffer] = []
        var failure: InputError?
        var isClosed = false
        var waitingSender: CheckedContinuation<Void, Never>?
    }

    private static let queuedChunks = 4
    private let state = Mutex(State())
    /// One signal per chunk sent, and one for the end.
    private let available = DispatchSemaphore(value: 0)
    // Used by the reading thread only.
    private var current: ByteBuffer?
    private var hasEnded = false

    // MARK: The sending side (the request's task)

    /// Hands `chunk` to the reader, waiting while enough are queued.
    ///
    /// - Returns: False when the reader has stopped reading (the import ended).
    func send(_ chunk: ByteBuffer) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = state.withLock { state in
                if state.isClosed { return false }
                state.chunks.append(chunk)
                available.signal()
                if state.chunks.count >= Self.queuedChunks {
                    state.waitingSender = continuation
                    return true
                }
                return false
            }
            if !waits { continuation.resume() }
        }
        return !state.withLock { $0.isClosed }
    }

    /// Ends the body: the reader sees its end, or `failure` after the chunks sent.
    func finish(failure: InputError? = nil) {
        state.withLock { $0.failure = failure }
        available.signal()
    }

    // MARK: The reading side (the import's reading thread)

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while current.map({ $0.readableBytes == 0 }) ?? true {
            if hasEnded { return 0 }
            available.wait()
            let (chunk, failure, waiting) = state.withLock {
                state -> (ByteBuffer?, InputError?, CheckedContinuation<Void, Never>?) in
                guard !state.chunks.isEmpty else { return (nil, state.failure, nil) }
                let chunk = state.chunks.removeFirst()
                let waiting = state.waitingSender
                state.waitingSender = nil
                return (chunk, nil, waiting)
            }
            waiting?.resume()
            if let chunk {
                current = chunk
            } else {
                hasEnded = true
                if let failure { throw failure }
                return 0
            }
        }
        let count = min(buffer.count, current!.readableBytes)
        current!.withUnsafeReadableBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<count]))
        }
        current!.moveReaderIndex(forwardBy: count)
        return count
    }

    /// Stops reading: a waiting sender resumes, later chunks are dropped, and a read waiting
    /// for a chunk (of an import that ended without it) sees the end.
    func close() {
        let waiting = state.withLock { state in
            state.isClosed = true
            state.chunks.removeAll()
            defer { state.waitingSender = nil }
            return state.waitingSender
        }
        waiting?.resume()
        available.signal()
    }
}

/// An export as a response body: the export writes on a pool thread, the response's task
/// sends what it wrote, in chunks of about 64 KiB; the export waits while a few chunks are
/// unsent, so a large export is never held in memory. A client that goes away stops the
/// export (its next write fails).
final class ExportPipe: ByteSink, @unchecked Sendable {
    private struct State {
        var chunks: [ByteBuffer] = []
        var isFinished = false
        var failure: (any Error)?
        var isClosed = false
        var waitingReceiver: CheckedContinuation<Void, Never>?
    }

    private static let chunkSize = 64 << 10
    private static let receiverTimeout = DispatchTimeInterval.seconds(60)
    private static let queuedChunks = 4
    private let state = Mutex(State())
    /// Signalled when the receiver took a chunk or stopped.
    private let space = DispatchSemaphore(value: 0)
    // Written by the exporting thread only.
    private var pending = ByteBuffer()

    // MARK: The writing side (the export's thread)

    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        pending.writeBytes(bytes)
        if pending.readableBytes >= Self.chunkSize { try push() }
    }

    /// Sends what is left and ends the body; with `failure` when the export failed.
    func finish(failure: (any Error)? = nil) {
        if failure == nil { try? push() }
        let waiting = state.withLock { state in
            state.isFinished = true
            state.failure = failure
            defer { state.waitingReceiver = nil }
            return state.waitingReceiver
        }
        waiting?.resume()
    }

    private func push() throws(OutputError) {
        guard pending.readableBytes > 0 else { return }
        let chunk = pending
        pending = ByteBuffer()
        while true {
            let (queued, waiting, isClosed) = state.withLock {
                state -> (Bool, CheckedContinuation<Void, Never>?, Bool) in
                if state.isClosed { return (false, nil, true) }
                guard state.chunks.count < Self.queuedChunks else { return (false, nil, false) }
                state.chunks.append(chunk)
                defer { state.waitingReceiver = nil }
                return (true, state.waitingReceiver, false)
            }
            if isClosed {
                throw OutputError(kind: .writeFailed, path: "response", reason: "client gone")
            }
            if queued {
                waiting?.resume()
                return
            }
            // A receiver that takes nothing for this long is gone (its answer was never
            // written): stop rather than hold a reader connection for ever.
            if space.wait(timeout: .now() + Self.receiverTimeout) == .timedOut {
                close()
                throw OutputError(kind: .writeFailed, path: "response", reason: "client gone")
            }
        }
    }

    // MARK: The receiving side (the response's task)

    /// The next chunk; nil at the end.
    ///
    /// - Throws: The export's error.
    func next() async throws -> ByteBuffer? {
        while true {
            enum Step {
                case chunk(ByteBuffer)
                case end
                case failure(any Error)
                case wait
            }
            let step = state.withLock { state -> Step in
                if !state.chunks.isEmpty { return .chunk(state.chunks.removeFirst()) }
                if let failure = state.failure { return .failure(failure) }
                return state.isFinished ? .end : .wait
            }
            switch step {
            case .chunk(let chunk):
                space.signal()
                return chunk
            case .end: return nil
            case .failure(let error): throw error
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state in
                        if !state.chunks.isEmpty || state.isFinished { return true }
                        state.waitingReceiver = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }

    /// Stops receiving: the export's next write fails.
    func close() {
        state.withLock { state in
            state.isClosed = true
            state.chunks.removeAll()
        }
        space.signal()
    }
}

extension RequestBodies {
    /// Runs `work` on the pool's writer with `body` as the bytes it reads, sent to it as they
    /// arrive (through a ``BodyPipe``): an import of any size in constant memory.
    ///
    /// - Throws: What reading the body throws (408, 413...), else what `work` throws.
    func streaming<T: Sendable>(
        _ body: RequestBody, limit: Int, to pool: SearchIndexPool,
        _ work: @escaping @Sendable (SearchIndex, BodyPipe) throws -> T
    ) async throws -> T {
        let pipe = BodyPipe()
        let working = Task {
            try await pool.write { index in
                defer { pipe.close() }
                return try work(index, pipe)
            }
        }
        var bodyError: (any Error)?
        do {
            try await forEachChunk(of: body, limit: limit) { chunk in await pipe.send(chunk) }
            pipe.finish()
        } catch {
            bodyError = error
            pipe.finish(failure: InputError(kind: .readFailed, path: "body", reason: "\(error)"))
        }
        let result: T
        do {
            result = try await working.value
        } catch {
            throw bodyError ?? error
        }
        if let bodyError { throw bodyError }
        return result
    }
}
