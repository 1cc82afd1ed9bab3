import FTSearchFormats
/// Exporting records: `ftsearch export`.
extension SearchIndex {
    /// Writes every record of `kinds`, with its id, extra fields and timestamps, in id order,
    /// in a format ``importRecords(from:options:onSkip:onProgress:)`` reads back exactly:
    /// export, import into an empty database and export again gives the same bytes.
    ///
    /// ```swift
    /// try index.export(.all, as: .json, to: FileDescriptorOutput.standardOutput())
    /// try index.export(.people, as: .ndjson, toFile: "people.ndjson")  // for Meilisearch, Typesense
    /// ```
    ///
    /// - JSON: `{"people":[{"id":1,"first_name":...},...],"animals":[...]}`, one record a line.
    /// - NDJSON: one flat object per line, `{"id":"1","first_name":...}` (the id as text, which
    ///   Typesense requires); one kind.
    /// - CSV (RFC 4180, LF line ends) and TSV (escapes `\t`, `\n`, `\r`, `\\`): a header row,
    ///   then a row per record; one kind. An extra field that is not text in every record is a
    ///   column of JSON values named `NAME:json`, where an empty cell means "no such field".
    ///
    /// Records hold `id`, the searchable fields, the extra fields, then `created_at` and
    /// `updated_at`; an import keeps those two. Memory stays constant however many records
    /// there are (CSV and TSV read the extra fields twice: once to choose the columns).
    ///
    /// - Throws: ``ExportError``.
    @discardableResult
    public func export(_ kinds: Set<Kind>, as format: InputFormat, to sink: any ByteSink)
        throws -> ExportSummary
    {
        var exporter = try RecordExporter(
            database: database, format: format, kinds: kinds.inOrder, sink: sink)
        // Every row is read once, in id order: through the page cache, as mapped pages would
        // all stay in the process's memory (135 MiB for 1M people).
        return try readingWithoutMapping { try exporter.run() }
    }

    /// Writes the export to the file at `path` through a temporary file beside it, renamed at
    /// the end (see `ExportFile`): an interrupted export leaves no file under that name.
    ///
    /// - Parameters:
    ///   - kinds: The kinds of records to write.
    ///   - format: The format, one that `importRecords` reads back.
    ///   - path: The file to write.
    ///   - overwrite: Whether an existing file may be replaced.
    /// - Throws: ``ExportError``; ``ExportError/unwritableOutput(_:)`` with an ``OutputError`` of
    ///   kind `.exists` when the file exists and `overwrite` is false.
    @discardableResult
    public func export(
        _ kinds: Set<Kind>, as format: InputFormat, toFile path: String, overwrite: Bool = false
    ) throws -> ExportSummary {
        do {
            let file = try ExportFile(path: path, overwrite: overwrite)
            let summary = try export(kinds, as: format, to: file)
            try file.commit()
            return summary
        } catch let error as OutputError {
            throw ExportError.unwritableOutput(error)
        }
    }
}
