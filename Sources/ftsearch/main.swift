#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A write past the file-size limit (`ulimit -f`) must fail with EFBIG, which SQLite reports as
// a full disk, rather than kill the process with SIGXFSZ half-way through a write.
signal(SIGXFSZ, SIG_IGN)

exit(CommandRunner.run(Array(CommandLine.arguments.dropFirst()), in: .current()))
