/// One record as a reader found it in an input file, before it is mapped to a person or animal.
public struct SourceRecord: Sendable {
    /// The 1-based physical line on which the record starts.
    public var line: Int
    /// The top-level key of the array the record came from, in documents shaped like
    /// `{"people": [...], "animals": [...]}`; `nil` for plain arrays, NDJSON, CSV and TSV.
    public var section: String?
    /// The record's fields in input order. CSV and TSV fields are always strings.
    public var fields: [JSONMember]

    /// Creates a record found at `line`.
    public init(line: Int, section: String? = nil, fields: [JSONMember]) {
        self.line = line
        self.section = section
        self.fields = fields
    }
}
