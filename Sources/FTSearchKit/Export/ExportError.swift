import FTSearchFormats
/// Why an export stopped. An export to a file leaves no file behind then.
public enum ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// NDJSON, CSV and TSV hold one kind of record per file.
    case oneKindPerFile(InputFormat)
    /// A record has two extra fields with the same name, which a CSV or TSV row cannot hold.
    case duplicateField(kind: Kind, id: Int64, name: String)
    /// The output could not be created or written.
    case unwritableOutput(OutputError)

    /// A sentence saying what is wrong.
    public var description: String {
        switch self {
        case .oneKindPerFile(let format):
            "\(format.rawValue) holds one kind of record per file"
        case .duplicateField(let kind, let id, let name):
            "\(kind.singularNoun) \(id) has two fields named \"\(name)\", which a csv or tsv row "
                + "cannot hold; export it as json or ndjson"
        case .unwritableOutput(let error):
            error.description
        }
    }
}
