public import Foundation

/// A fresh directory under the system's temporary folder, removed when the value is released.
public final class TemporaryDirectory {
    /// The directory's path.
    public let path: String

    /// Creates the directory.
    public init() throws {
        path = NSTemporaryDirectory() + "ftsearch-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` to `name` and returns its path.
    @discardableResult
    public func write(_ contents: String, to name: String) throws -> String {
        try contents.write(toFile: file(name), atomically: true, encoding: .utf8)
        return file(name)
    }

    /// The files of the directory (or of `folder` inside it) and their bytes: compare two to
    /// see that nothing there changed.
    public func snapshot(of folder: String? = nil) throws -> [String: Data] {
        let folder = folder.map(file) ?? path
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return files
    }
}
