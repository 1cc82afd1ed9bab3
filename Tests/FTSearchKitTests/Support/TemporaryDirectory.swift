import Foundation

/// A fresh directory under the system's temporary folder, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "ftsearch-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` to `name` and returns its path.
    @discardableResult
    func write(_ contents: String, to name: String) throws -> String {
        try contents.write(toFile: file(name), atomically: true, encoding: .utf8)
        return file(name)
    }
}
