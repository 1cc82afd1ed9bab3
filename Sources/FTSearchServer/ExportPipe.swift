import Dispatch
import FTSearchKit
import Hummingbird
import Synchronization

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
    /// How long the export waits for a receiver that takes nothing.
    private let receiverTimeout: DispatchTimeInterval
    private static let queuedChunks = 4
    private let state = Mutex(State())
    /// Signalled when the receiver took a chunk or stopped.
    private let space = DispatchSemaphore(value: 0)
    // Written by the exporting thread only.
    private var pending = ByteBuffer()

    init(receiverTimeout: Duration) {
        let milliseconds =
            receiverTimeout.components.seconds * 1000
            + receiverTimeout.components.attoseconds / 1_000_000_000_000_000
        self.receiverTimeout = .milliseconds(Int(milliseconds))
    }

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
            if space.wait(timeout: .now() + receiverTimeout) == .timedOut {
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

/// Holds an export's pipe for its response body and closes it when the body is released,
/// written or not (a HEAD request drops it unwritten): the export then stops rather than wait
/// for a receiver that will never come.
final class ExportPipeHolder: Sendable {
    let pipe: ExportPipe

    init(_ pipe: ExportPipe) { self.pipe = pipe }

    deinit { pipe.close() }
}
