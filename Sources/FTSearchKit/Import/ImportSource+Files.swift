import FTSearchFormats
extension ImportSource {
    /// Opens every file (`-` for standard input) and makes its reader, before anything is
    /// written, so a missing or unreadable file stops the import with nothing changed.
    ///
    /// - Parameters:
    ///   - paths: The files, in the order to import them.
    ///   - format: The format of every file; `nil` chooses per file from its extension, else
    ///     from its first bytes.
    /// - Throws: ``ImportError/unreadableInput(_:)`` for the first file that cannot be read.
    public static func open(_ paths: [String], format: InputFormat? = nil) throws(ImportError)
        -> [ImportSource]
    {
        var sources: [ImportSource] = []
        for path in paths {
            do {
                let file = try InputFile(path: path)
                let reader = try InputFormat.makeReader(for: file, format: format, path: path)
                    .reader
                sources.append(
                    ImportSource(
                        path: path == "-" ? "<stdin>" : path, size: file.size, reader: reader))
            } catch {
                throw .unreadableInput(error)
            }
        }
        return sources
    }
}
