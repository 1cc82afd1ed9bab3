import Foundation

/// A pseudo-terminal that tmux holds, running one shell command: keys go in with `send-keys`,
/// the screen comes out with `capture-pane`, as a person would see it.
///
/// Each pane has its own tmux server (`-L`), without any configuration (`-f /dev/null`).
final class TmuxPane {
    static let executable = "/usr/bin/tmux"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let socket = "ftsearch-interactive-test-" + UUID().uuidString

    /// Starts `command` (run by `sh -c`) in a pane of `width` × `height`.
    ///
    /// - Throws: ``Failure`` when tmux is not installed (scripts/test installs it).
    init(running command: String, width: Int = 80, height: Int = 24) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure(
                description:
                    "tmux is not installed: the interactive end-to-end tests need it; scripts/test installs it (apt-get install tmux)"
            )
        }
        // The server this starts keeps the standard output it was given: not a pipe we read.
        try tmux(
            capturingOutput: false,
            [
                "-f", "/dev/null", "new-session", "-d", "-x", String(width), "-y", String(height),
                command,
            ])
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// Presses keys by tmux's names: `"Enter"`, `"Escape"`, `"C-g"`, `"Down"`.
    func press(_ keys: String...) throws {
        try tmux(["send-keys"] + keys)
    }

    /// Types `text` literally, one key per character.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-l", text])
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", String(width), "-y", String(height)])
    }

    /// The screen's lines, trailing spaces removed.
    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p"]).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                var line = String(line)
                while line.last == " " { line.removeLast() }
                return line
            }
    }

    /// Polls the screen until `isReady` holds, and returns it.
    ///
    /// - Throws: ``Failure`` with the last screen seen when it does not within `timeout`.
    @discardableResult
    func waitForScreen(
        timeout: Duration = .seconds(15), _ isReady: ([String]) -> Bool,
        sourceLocation: String = #function
    ) throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        var lines: [String] = []
        while ContinuousClock.now < deadline {
            lines = (try? screen()) ?? []
            if isReady(lines) { return lines }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw Failure(
            description: "the screen never got ready in \(sourceLocation):\n"
                + lines.joined(separator: "\n"))
    }

    /// Runs tmux with posix_spawn and waitpid: Foundation's `Process` never sees the client
    /// exit once it has started a server, and waits forever.
    @discardableResult
    private func tmux(capturingOutput: Bool = true, _ arguments: [String]) throws -> String {
        var output: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw Failure(description: "no pipe for tmux") }
        defer { close(output[0]) }
        for end in output { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capturingOutput {
            posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        } else {
            // The server this starts keeps the standard output it was given.
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else: a server holding another test's pipe open would hang that test.
        _ = closeFrom(&actions, 3)
        let argv = ([Self.executable, "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Self.executable, &actions, nil, argv, environ)
        close(output[1])
        guard spawned == 0 else { throw Failure(description: "tmux could not start") }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(output[0], &buffer, buffer.count)
            guard count > 0 else { break }
            data += buffer[..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which its Swift module
/// does not export.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func closeFrom(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32
) -> Int32
