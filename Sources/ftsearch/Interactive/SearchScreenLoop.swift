#if canImport(Glibc)
    import Glibc
#endif

/// Runs the screen: waits with `poll(2)` for keys, signals and search replies, feeds them to
/// ``SearchScreen``, hands its effects to the ``SearchWorker``, and draws a frame after each
/// round, until the screen finishes or a signal ends it. The terminal is restored before
/// ``run()`` returns or throws.
struct SearchScreenLoop {
    /// How the loop ended.
    enum Ending: Equatable {
        case finished(SearchScreen.Outcome)
        /// SIGTERM, SIGHUP or SIGQUIT arrived, or the terminal went away (SIGHUP).
        case signaled(Int32)
    }

    let terminal: TerminalSession
    let worker: SearchWorker
    let frames: FrameWriter
    /// The text on the query line when the screen opens.
    var initialText = ""

    /// How long a lone ESC byte waits for the rest of a sequence before it counts as Escape.
    static let escapeDelayMilliseconds: Int32 = 25

    /// - Throws: the error of a failed lookup, after the terminal is restored.
    func run() throws -> Ending {
        let signals = TerminalSignals()
        terminal.enter()
        defer { terminal.restore() }
        var screen = SearchScreen(size: terminal.size)
        var decoder = KeyDecoder()
        var shown: ScreenGrid?
        if let ending = perform(screen.start(with: initialText)) { return ending }
        while true {
            let grid = SearchScreenRenderer.grid(for: screen)
            if grid != shown {
                terminal.write(frames.update(from: shown, to: grid))
                shown = grid
            }
            var sources = [
                pollfd(fd: terminal.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: worker.fileDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let timeout = decoder.isAwaitingMore ? Self.escapeDelayMilliseconds : -1
            let ready = poll(&sources, nfds_t(sources.count), timeout)
            if ready < 0 {
                guard errno == EINTR else { return .signaled(SIGHUP) }
                continue
            }
            if ready == 0, let ending = handle(decoder.flush(), on: &screen) {
                return ending
            }
            if sources[1].revents != 0 {
                for signal in signals.received() {
                    switch signal {
                    case SIGWINCH:
                        if let ending = perform(screen.resize(to: terminal.size)) { return ending }
                        shown = nil
                    case SIGINT:
                        return .finished(.cancelled)
                    default:
                        return .signaled(signal)
                    }
                }
            }
            if sources[0].revents != 0 {
                guard let bytes = terminal.read() else { return .signaled(SIGHUP) }
                if let ending = handle(decoder.keys(from: bytes), on: &screen) { return ending }
            }
            if sources[2].revents != 0 {
                for reply in worker.takeReplies() {
                    switch reply {
                    case .listing(let listing):
                        screen.receive(listing)
                    case .suggestion(let suggestion, let text):
                        if let ending = perform(screen.complete(text, with: suggestion)) {
                            return ending
                        }
                    case .failure(let error):
                        throw error
                    }
                }
            }
        }
    }

    private func handle(_ keys: [Key], on screen: inout SearchScreen) -> Ending? {
        for key in keys {
            if let ending = perform(screen.handle(key)) { return ending }
        }
        return nil
    }

    /// Hands effects to the worker; the ending when one finishes the screen.
    private func perform(_ effects: [SearchScreen.Effect]) -> Ending? {
        for effect in effects {
            switch effect {
            case .search(let request): worker.search(request)
            case .deletePastSearch(let text): worker.deletePastSearch(text)
            case .suggest(let text): worker.suggest(text)
            case .finish(let outcome): return .finished(outcome)
            }
        }
        return nil
    }
}
