#if canImport(Glibc)
    import Glibc
#endif

/// Puts the terminal back when the process dies of a fatal signal (a trap in a search, a bad
/// memory access) while the screen is up, then lets the signal go on to the handler it had
/// before (Swift's backtracer, or the default), so the crash report lands on a usable terminal.
///
/// State lives in globals because a signal handler cannot capture any; it is written only by
/// ``arm(fileDescriptor:settings:)`` and ``disarm()``, on the main thread, while the handler
/// only reads it.
enum CrashRestoration {
    static let fatalSignals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    /// Installs the handlers: from now on a crash restores `settings` on `fileDescriptor`.
    static func arm(fileDescriptor: Int32, settings: termios) {
        armedTerminal = (fileDescriptor, settings)
        for signal in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = restoreTerminalAndCrash
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_ONSTACK
            sigaction(signal, &action, &previousActions[Int(signal)])
        }
    }

    /// Puts the previous handlers back.
    static func disarm() {
        guard armedTerminal != nil else { return }
        for signal in fatalSignals {
            sigaction(signal, &previousActions[Int(signal)], nil)
        }
        armedTerminal = nil
    }
}

nonisolated(unsafe) private var armedTerminal: (fileDescriptor: Int32, settings: termios)?
nonisolated(unsafe) private var previousActions: [sigaction] = Array(
    repeating: sigaction(), count: 65)

/// Only async-signal-safe calls: write(2), tcsetattr(3), sigaction(2), raise(3).
private func restoreTerminalAndCrash(_ signal: Int32) {
    if var terminal = armedTerminal {
        TerminalSession.leaveSequence.withUTF8Buffer {
            _ = write(terminal.fileDescriptor, $0.baseAddress, $0.count)
        }
        tcsetattr(terminal.fileDescriptor, TCSANOW, &terminal.settings)
    }
    sigaction(signal, &previousActions[Int(signal)], nil)
    raise(signal)
}
