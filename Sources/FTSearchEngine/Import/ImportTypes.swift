import FTSearchFormats
/// How `ftsearch import` reads and stores its input.
public struct ImportOptions: Sendable {
    /// The kind of every record; `nil` infers it from each file's fields (or sections).
    public var kind: Kind?
    /// Empty the kinds being imported first, in the same transaction.
    public var replace: Bool
    /// Skip invalid records (reporting each) instead of stopping at the first.
    public var skipInvalid: Bool
    /// Whether a record whose id is stored keeps the stored fields it does not give, as
    /// Meilisearch's "add or update documents" does; by default it replaces the stored record
    /// whole. The record is checked (a person needs a name) after the fields are merged, so
    /// `{"id": 7, "age": 40}` updates person 7's age.
    public var keepsStoredFields: Bool
    /// The largest field a record may hold, in UTF-8 bytes (a larger one makes the record
    /// invalid); `nil` for no limit.
    public var maximumFieldSize: Int?

    /// Creates options; the defaults are those of `ftsearch import`.
    public init(
        kind: Kind? = nil, replace: Bool = false, skipInvalid: Bool = false,
        keepsStoredFields: Bool = false, maximumFieldSize: Int? = nil
    ) {
        self.kind = kind
        self.replace = replace
        self.skipInvalid = skipInvalid
        self.keepsStoredFields = keepsStoredFields
        self.maximumFieldSize = maximumFieldSize
    }

    /// Why `fields` cannot be stored under a limit of `maximumSize` bytes a field (`field
    /// 'notes' is 70000 bytes, more than 65536`); `nil` when every field fits.
    public static func oversizedField(in fields: [JSONMember], maximumSize: Int) -> String? {
        for field in fields {
            let size =
                switch field.value {
                case .string(let text), .number(let text): text.utf8.count
                case .null, .bool: 0
                case .array, .object: field.value.jsonText.utf8.count
                }
            if size > maximumSize {
                return "field '\(field.key)' is \(size) bytes, more than \(maximumSize)"
            }
        }
        return nil
    }
}

/// One input of an import: a stream of JSON, NDJSON, CSV or TSV, and the name to report its
/// problems under (``RecordProblem/path``).
///
/// ```swift
/// let csv = MemoryInput("first_name,last_name\nAnn,Lee\n")
/// let source = try ImportSource(name: "pasted.csv", bytes: csv, format: .csv)
/// try index.importRecords(from: [source], options: ImportOptions())
/// ```
///
/// Files are opened with ``open(_:format:)``.
public struct ImportSource {
    /// The path as the user gave it (`-` for standard input), or the stream's name.
    public var path: String
    /// The total size in bytes, when known (for progress reports).
    public var size: Int64?
    /// The reader of the input's records.
    package var reader: any RecordReader

    /// A source that reads `bytes` as `format`, or as the format its first bytes show when
    /// `format` is nil.
    ///
    /// - Parameters:
    ///   - name: What to call the input in problems and progress.
    ///   - bytes: The input.
    ///   - format: Its format; nil guesses it from the first bytes.
    ///   - size: The input's size in bytes, when known (for progress reports).
    /// - Throws: ``InputError`` when reading the first bytes (to guess the format) fails.
    public init(
        name: String, bytes: any ByteSource, format: InputFormat? = nil, size: Int64? = nil
    ) throws(InputError) {
        self.init(
            path: name, size: size,
            reader: try InputFormat.makeReader(for: bytes, format: format).reader)
    }

    /// A source whose records `reader` reads: one of ``InputFormat``'s readers, or a reader of
    /// your own (see ``RecordReader``) — to check or change each record as it streams by, or
    /// to import records from anything that is not a file.
    ///
    /// - Parameters:
    ///   - name: What to call the input in problems and progress.
    ///   - reader: The reader of its records.
    ///   - size: The input's size in bytes, when known (for progress reports, which compare it
    ///     with the reader's `bytesConsumed`).
    public init(name: String, reader: any RecordReader, size: Int64? = nil) {
        self.init(path: name, size: size, reader: reader)
    }

    package init(path: String, size: Int64? = nil, reader: any RecordReader) {
        self.path = path
        self.size = size
        self.reader = reader
    }
}

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    /// New records, per kind.
    public var inserted: [Kind: Int] = [:]
    /// Existing records replaced because the input gave their id, per kind.
    public var updated: [Kind: Int] = [:]
    /// Invalid records skipped (with `skipInvalid`).
    public var skipped = 0

    /// Creates an empty summary.
    public init() {}

    /// The kinds that received records, in a fixed order.
    public var kinds: [Kind] {
        Kind.allCases.filter { inserted[$0, default: 0] + updated[$0, default: 0] > 0 }
    }
}

/// How far an import has come, reported from time to time.
public struct ImportProgress: Sendable {
    /// Records read so far, valid or not.
    public var recordsRead: Int
    /// Bytes read so far, over all inputs.
    public var bytesRead: Int64
    /// The size of all inputs, when every size is known.
    public var totalBytes: Int64?
    /// Whether every input has been read and the full-text index is being built (the last,
    /// silent, step of a large import).
    public var isIndexing = false

    package init(
        recordsRead: Int, bytesRead: Int64, totalBytes: Int64?, isIndexing: Bool = false
    ) {
        self.recordsRead = recordsRead
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.isIndexing = isIndexing
    }
}

/// A record that could not be imported, located in its file: `people.csv:12: expected 3 fields, found 4`.
public struct RecordProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input, as the user named it.
    public var path: String
    /// The 1-based physical line of the record.
    public var line: Int
    /// The 1-based column of the problem, where it helps.
    public var column: Int?
    /// What is wrong, as a short lowercase phrase.
    public var reason: String

    /// Creates a problem report.
    public init(path: String, line: Int, column: Int? = nil, reason: String) {
        self.path = path
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `FILE:LINE[:COLUMN]: reason`.
    public var description: String {
        "\(path):\(line):" + (column.map { "\($0):" } ?? "") + " \(reason)"
    }
}

/// Why an import stopped. Nothing of it was stored.
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A record was malformed or invalid.
    case invalidRecord(RecordProblem)
    /// A file's records have no field that tells whether they are people or animals.
    case unknownKind(path: String)
    /// An input could not be opened or read.
    case unreadableInput(InputError)

    /// A sentence saying what is wrong, naming the file.
    public var description: String {
        switch self {
        case .invalidRecord(let problem):
            problem.description
        case .unknownKind(let path):
            "\(path): cannot tell whether the records are people or animals (no first_name, "
                + "last_name or name field)"
        case .unreadableInput(let error):
            "\(error.path): \(error.reason)"
        }
    }
}
