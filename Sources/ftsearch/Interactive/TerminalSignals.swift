#if canImport(Glibc)
    import Glibc
#endif

/// The signals the screen acts on — a resize (SIGWINCH), and requests to end (SIGTERM,
/// SIGHUP, SIGINT, SIGQUIT) — turned into bytes on a pipe, so that the event loop waits for
/// them with `poll(2)` beside the keyboard, and handles them outside of signal context.
final class TerminalSignals {
    static let handled = [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT]

    /// The read end of the pipe: readable when a signal arrived.
    let fileDescriptor: Int32
    private let writeEnd: Int32
    private var previousActions: [Int32: sigaction] = [:]

    init() {
        (fileDescriptor, writeEnd) = makeWakeUpPipe()
        signalPipe = writeEnd
        // The thread may have inherited a mask that blocks them (seen under `sh -c '… &'`):
        // a blocked SIGTERM would wait forever.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signal in Self.handled { sigaddset(&unblocked, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for signal in Self.handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardToPipe
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var previous = sigaction()
            sigaction(signal, &action, &previous)
            previousActions[signal] = previous
        }
    }

    deinit {
        for (signal, var previous) in previousActions {
            sigaction(signal, &previous, nil)
        }
        signalPipe = -1
        close(fileDescriptor)
        close(writeEnd)
    }

    /// The signals received since the last call, in order.
    func received() -> [Int32] {
        var signals: [Int32] = []
        var byte: UInt8 = 0
        while read(fileDescriptor, &byte, 1) == 1 {
            signals.append(Int32(byte))
        }
        return signals
    }

    /// Ends the process by `signal` with its default action, as if it had not been handled
    /// (the shell then reports 128 + the signal's number).
    static func endProcess(by signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        raise(signal)
        exit(128 + signal)
    }
}

nonisolated(unsafe) private var signalPipe: Int32 = -1

/// Writes the signal's number to the pipe; keeps `errno` for the code it interrupted.
private func forwardToPipe(_ signal: Int32) {
    let savedError = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipe, &byte, 1)
    errno = savedError
}

/// A pipe whose ends neither block nor survive `exec`, for waking `poll(2)` up.
func makeWakeUpPipe() -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    precondition(pipe(&ends) == 0, "a pipe to wake the event loop up")
    for end in ends {
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        _ = fcntl(end, F_SETFL, O_NONBLOCK)
    }
    return (ends[0], ends[1])
}
