import Foundation

/// Runs `body` with the file permissions of `nobody`, as another user on the machine would.
///
/// As root, permission bits stop no one, so the calling thread's file-system identity is
/// switched to `nobody` (setfsuid(2), setfsgid(2)), which also drops its file capabilities
/// such as `CAP_DAC_OVERRIDE`. Both act on the calling thread only, so tests running in
/// parallel on other threads keep their identity; `body` must not hop threads. As another user,
/// `body` runs unchanged: the files' permission bits already apply to their owner.
func asAnotherUser<T>(_ body: () throws -> T) throws -> T {
    guard getuid() == 0 else { return try body() }
    // Not in Glibc's Swift module; looked up as the C functions they are.
    typealias SetFileSystemID = @convention(c) (UInt32) -> Int32
    guard let uidSymbol = dlsym(nil, "setfsuid"), let gidSymbol = dlsym(nil, "setfsgid") else {
        throw AnotherUserUnavailable()
    }
    let setfsuid = unsafeBitCast(uidSymbol, to: SetFileSystemID.self)
    let setfsgid = unsafeBitCast(gidSymbol, to: SetFileSystemID.self)
    let nobody: UInt32 = 65534
    _ = setfsgid(nobody)
    _ = setfsuid(nobody)
    defer {
        _ = setfsuid(0)
        _ = setfsgid(0)
    }
    // setfsuid returns the previous identity, so asking again tells whether the switch took.
    guard setfsuid(nobody) == nobody else { throw AnotherUserUnavailable() }
    return try body()
}

/// The thread's file-system identity could not be switched.
struct AnotherUserUnavailable: Error {}
