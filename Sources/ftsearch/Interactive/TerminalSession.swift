#if canImport(Glibc)
    import Glibc
#endif

/// The terminal `ftsearch interactive` draws on: `/dev/tty`, so that standard output stays free
/// for the chosen record, as fzf does.
///
/// ``enter()`` puts it in raw mode (no echo, no line editing, no signals from Ctrl-C: every key
/// reaches the screen) on the alternate screen with bracketed paste; ``restore()`` puts back
/// exactly the settings it found, and runs on every way out: the normal ones through `defer`,
/// a crash through ``CrashRestoration``.
final class TerminalSession {
    let fileDescriptor: Int32
    private var original: termios
    private(set) var isEntered = false

    /// What leaves the screen as it was: bracketed paste off, default colours, the cursor
    /// shown, the normal screen back.
    static let leaveSequence: StaticString = "\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    private static let enterSequence = "\u{1B}[?1049h\u{1B}[?2004h\u{1B}[H\u{1B}[2J"

    /// Opens the controlling terminal.
    ///
    /// - Throws: ``TerminalUnavailable`` when the process has none (cron, CI, `setsid`, a
    ///   container started without `-t`).
    init() throws(TerminalUnavailable) {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw TerminalUnavailable(reason: String(cString: strerror(errno)))
        }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw TerminalUnavailable(reason: reason)
        }
        fileDescriptor = descriptor
        original = settings
    }

    deinit {
        restore()
        close(fileDescriptor)
    }

    /// Raw mode, the alternate screen and bracketed paste.
    func enter() {
        guard !isEntered else { return }
        var raw = original
        cfmakeraw(&raw)
        // TCSADRAIN, not TCSAFLUSH: what was typed while the process started is kept.
        tcsetattr(fileDescriptor, TCSADRAIN, &raw)
        isEntered = true
        CrashRestoration.arm(fileDescriptor: fileDescriptor, settings: original)
        write(Self.enterSequence)
    }

    /// Puts the terminal back as ``enter()`` found it; does nothing when it is not entered.
    func restore() {
        guard isEntered else { return }
        Self.leaveSequence.withUTF8Buffer { write(Array($0)) }
        tcsetattr(fileDescriptor, TCSADRAIN, &original)
        CrashRestoration.disarm()
        isEntered = false
    }

    /// The terminal's size; 80×24 when it does not say.
    var size: SearchScreen.Size {
        var window = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0,
            window.ws_row > 0
        else { return SearchScreen.Size(width: 80, height: 24) }
        return SearchScreen.Size(width: Int(window.ws_col), height: Int(window.ws_row))
    }

    func write(_ text: String) {
        write(Array(text.utf8))
    }

    private func write(_ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes {
                Glibc.write(fileDescriptor, $0.baseAddress, $0.count)
            }
            if result < 0 {
                guard errno == EINTR || errno == EAGAIN else { return }
                continue
            }
            written += result
        }
    }

    /// The bytes the terminal has sent; nil when it is gone (hung up, closed).
    func read() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes {
                Glibc.read(fileDescriptor, $0.baseAddress, $0.count)
            }
            if count > 0 { return Array(buffer[..<count]) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return nil
        }
    }
}

/// There is no terminal to draw on.
struct TerminalUnavailable: Error, CustomStringConvertible {
    /// Why `/dev/tty` could not be used.
    var reason: String

    var description: String {
        "ftsearch interactive needs a terminal, and /dev/tty cannot be opened (\(reason.lowercased())); "
            + "in scripts, use 'ftsearch query'"
    }
}
