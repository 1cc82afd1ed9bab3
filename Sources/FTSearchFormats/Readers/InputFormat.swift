/// The kinds of input file ftsearch imports.
public enum InputFormat: String, CaseIterable, Sendable {
    /// A JSON array of objects, or an object whose members are arrays of objects
    /// (`JSONArrayReader`).
    case json
    /// One JSON object per line (`NDJSONReader`).
    case ndjson
    /// Comma-separated values with a header row (`CSVReader`).
    case csv
    /// Tab-separated values with a header line (`TSVReader`).
    case tsv

    /// The format a file name extension stands for, ignoring case: `json`, `ndjson` or `jsonl`,
    /// `csv`, `tsv` (with or without the leading dot).
    ///
    /// - Returns: `nil` for any other extension.
    public init?(pathExtension: String) {
        var name = pathExtension.lowercased()
        if name.hasPrefix(".") { name.removeFirst() }
        switch name {
        case "json": self = .json
        case "ndjson", "jsonl": self = .ndjson
        case "csv": self = .csv
        case "tsv": self = .tsv
        default: return nil
        }
    }

    /// The format the extension of the file name at the end of `path` stands for.
    ///
    /// - Returns: `nil` when the name has no extension or an unknown one (and for `-`).
    public init?(path: String) {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(pathExtension: String(name[name.index(after: dot)...]))
    }

    /// Guesses the format from the first bytes of an input.
    ///
    /// After an optional UTF-8 byte order mark and whitespace:
    /// - `[` means JSON;
    /// - `{` means NDJSON when the first line holds a complete JSON object and the next non-blank
    ///   line starts with `{` too, or when that object is the whole input and not every member
    ///   is an array (a one-record NDJSON file); otherwise JSON;
    /// - anything else means TSV when the first non-blank line has more tabs than commas, and
    ///   CSV otherwise (an empty input is CSV, which has no records).
    ///
    /// - Parameters:
    ///   - prefix: The first bytes of the input: up to the first byte of its second non-blank
    ///     line where possible.
    ///   - isWholeInput: Whether `prefix` is all of the input.
    public init(sniffing prefix: [UInt8], isWholeInput: Bool) {
        let bytes = prefix.starts(with: Self.byteOrderMark) ? prefix.dropFirst(3) : prefix[...]
        let lines = bytes.drop(while: Self.isLineBreak)
        guard let first = lines.first(where: { !Self.isWhitespace($0) }) else {
            self = .csv
            return
        }
        if first == JSONByte.openBracket {
            self = .json
        } else if first == JSONByte.openBrace {
            self = Self.sniffObjects(
                lines.drop(while: Self.isWhitespace), isWholeInput: isWholeInput)
        } else {
            let firstLine = lines.prefix(while: { $0 != 0x0A })
            let tabs = firstLine.count(where: { $0 == DelimitedByte.tab })
            let commas = firstLine.count(where: { $0 == DelimitedByte.comma })
            self = tabs > commas ? .tsv : .csv
        }
    }

    /// Tells NDJSON from JSON for input that starts with `{`.
    private static func sniffObjects(_ bytes: ArraySlice<UInt8>, isWholeInput: Bool) -> InputFormat
    {
        let lineEnd = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
        guard lineEnd < bytes.endIndex || isWholeInput,
            case .object(let members)? = try? JSONParser.parseDocument(Array(bytes[..<lineEnd]))
        else { return .json }
        if let next = bytes[lineEnd...].first(where: { !isWhitespace($0) }) {
            return next == JSONByte.openBrace ? .ndjson : .json
        }
        guard isWholeInput else { return .json }
        let isSections = members.allSatisfy { member in
            if case .array = member.value { true } else { false }
        }
        return isSections ? .json : .ndjson
    }

    package static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isLineBreak(_ byte: UInt8) -> Bool {
        byte == 0x0A || byte == 0x0D
    }
}
