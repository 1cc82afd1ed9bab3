/// Choosing a reader for an input.
extension InputFormat {
    /// A reader of this format over `source`.
    public func makeReader(for source: any ByteSource) -> any RecordReader {
        switch self {
        case .json: JSONArrayReader(source: source)
        case .ndjson: NDJSONReader(source: source)
        case .csv: CSVReader(source: source)
        case .tsv: TSVReader(source: source)
        }
    }

    /// Chooses the format of an input and makes its reader.
    ///
    /// The format is `format` when given, else the one the extension of `path` stands for, else
    /// the one ``init(sniffing:isWholeInput:)`` guesses from the first bytes of `source`. Bytes
    /// read to guess are handed to the reader first, so none is lost.
    ///
    /// ```swift
    /// let input = try InputFile(path: "-")
    /// var (format, reader) = try InputFormat.makeReader(for: input, path: input.path)
    /// ```
    ///
    /// - Parameters:
    ///   - source: The input.
    ///   - format: The format the user asked for, if any.
    ///   - path: The input's path, if any (`-` has no extension).
    /// - Returns: The format chosen and a reader ready for its first record.
    /// - Throws: ``InputError`` when reading the first bytes fails.
    public static func makeReader(
        for source: any ByteSource, format: InputFormat? = nil, path: String? = nil
    ) throws(InputError) -> (format: InputFormat, reader: any RecordReader) {
        if let chosen = format ?? path.flatMap(InputFormat.init(path:)) {
            return (chosen, chosen.makeReader(for: source))
        }
        let (prefix, isWholeInput) = try readPrefixToSniff(source)
        let sniffed = InputFormat(sniffing: prefix, isWholeInput: isWholeInput)
        return (sniffed, sniffed.makeReader(for: ReplayedInput(prefix: prefix, rest: source)))
    }

    /// The most ``readPrefixToSniff(_:)`` reads: enough for any reasonable first line.
    package static let sniffingLimit = 1 << 20

    /// Reads until the prefix reaches the second non-blank line (or the first line, unless the
    /// input starts with `{`), the input ends, or ``sniffingLimit`` bytes have been read.
    package static func readPrefixToSniff(_ source: any ByteSource) throws(InputError)
        -> (prefix: [UInt8], isWholeInput: Bool)
    {
        var prefix: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(
            byteCount: ReadBuffer.defaultCapacity, alignment: 1)
        defer { chunk.deallocate() }
        // Nothing is enough before the first line feed; checking only from then on keeps a long
        // first line from being searched again after every chunk.
        var hasLineFeed = false
        while prefix.count < sniffingLimit && !(hasLineFeed && hasEnoughToSniff(prefix)) {
            let count = try source.read(into: chunk)
            if count == 0 { return (prefix, true) }
            let bytes = UnsafeRawBufferPointer(rebasing: chunk[..<count])
            hasLineFeed = hasLineFeed || bytes.contains(0x0A)
            prefix += bytes
        }
        return (prefix, false)
    }

    private static func hasEnoughToSniff(_ prefix: [UInt8]) -> Bool {
        let isBlank = { (byte: UInt8) in
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }
        let bytes = prefix.starts(with: byteOrderMark) ? prefix.dropFirst(3) : prefix[...]
        guard let start = bytes.firstIndex(where: { !isBlank($0) }),
            let lineEnd = bytes[start...].firstIndex(of: 0x0A)
        else { return false }
        return bytes[start] != JSONByte.openBrace
            || bytes[lineEnd...].contains(where: { !isBlank($0) })
    }
}
