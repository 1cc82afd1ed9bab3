#if canImport(Glibc)
    import Glibc
#endif
import Testing

@testable import ftsearch

@Suite struct OutputWriterTests {
    /// An empty temporary file, open for reading and writing, removed when `body` returns.
    private func withTemporaryFile(_ body: (Int32) throws -> Void) rethrows {
        var template = Array("/tmp/ftsearch-writer-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        precondition(descriptor >= 0, "mkstemp failed")
        defer {
            close(descriptor)
            unlink(template)
        }
        try body(descriptor)
    }

    private func fileSize(_ descriptor: Int32) -> Int {
        var status = stat()
        fstat(descriptor, &status)
        return Int(status.st_size)
    }

    @Test func fullBufferingWritesOnFlush() {
        withTemporaryFile { descriptor in
            let writer = OutputWriter(fileDescriptor: descriptor, buffering: .full)
            writer.write("hello\n")
            #expect(fileSize(descriptor) == 0)
            #expect(writer.flush())
            #expect(fileSize(descriptor) == 6)
        }
    }

    @Test func lineBufferingWritesAtLineEnds() {
        withTemporaryFile { descriptor in
            let writer = OutputWriter(fileDescriptor: descriptor, buffering: .line)
            writer.write("partial")
            #expect(fileSize(descriptor) == 0)
            writer.print(" line")
            #expect(fileSize(descriptor) == 13)
        }
    }

    @Test func unbufferedWritesAtOnce() {
        withTemporaryFile { descriptor in
            let writer = OutputWriter(fileDescriptor: descriptor, buffering: .none)
            writer.write("x")
            #expect(fileSize(descriptor) == 1)
        }
    }

    @Test func failedWriteIsRemembered() {
        let writer = OutputWriter(fileDescriptor: -1, buffering: .full)
        writer.write("lost")
        #expect(!writer.flush())
        #expect(writer.writeErrorNumber == EBADF)
    }

    @Test func capturingWriterKeepsText() {
        let writer = OutputWriter.capturing()
        var stream = writer
        print("a", "b", separator: "-", to: &stream)
        writer.print(1, 2)
        writer.write("é")
        #expect(writer.capturedText == "a-b\n1 2\né")
    }
}
