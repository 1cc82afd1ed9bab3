/// A problem ``SearchIndex/check()`` found.
public enum DatabaseProblem: Sendable, Equatable, CustomStringConvertible {
    /// SQLite's integrity check reported this line (https://sqlite.org/pragma.html#pragma_integrity_check).
    case integrity(String)
    /// A full-text index does not hold exactly the words of its table's rows:
    /// ``SearchIndex/rebuild()`` mends it.
    case indexMismatch(index: String, table: String)
    /// A word index's table of row sizes, kept for ranking, disagrees with the index:
    /// ``SearchIndex/rebuild()`` mends it.
    case rowSizesMismatch(table: String, index: String)
    /// A kind's table of sort codes, kept for ordering ties by name, disagrees with its
    /// records: ``SearchIndex/rebuild()`` mends it.
    case sortCodesMismatch(table: String, records: String)

    /// A sentence saying what is wrong.
    public var description: String {
        switch self {
        case .integrity(let line): line
        case .indexMismatch(let index, let table):
            "the \(index) index does not match the \(table) table"
        case .rowSizesMismatch(let table, let index):
            "the \(table) table does not match the \(index) index"
        case .sortCodesMismatch(let table, let records):
            "the \(table) table does not match the \(records) table"
        }
    }
}
