/// Why the store API of ``SearchIndex`` refused a change. Nothing of the change was stored.
public enum RecordStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A record that is not a valid person or animal: the same rules as an import's, plus no
    /// extra field named like a field an import would read otherwise (`id`, `surname`).
    /// `position` is the record's 0-based place in a batch, `nil` for a single record.
    case invalidRecord(kind: Kind, position: Int?, reason: String)
    /// A record to insert gives an id that another record of its kind already has.
    case idInUse(kind: Kind, id: Int64)
    /// Ids that no record of the kind has.
    case unknownIDs(kind: Kind, ids: [Int64])

    /// A sentence saying what is wrong: `no person with id 12`.
    public var description: String {
        switch self {
        case .invalidRecord(_, let position?, let reason):
            "record \(position + 1) of the batch: \(reason)"
        case .invalidRecord(_, nil, let reason):
            reason
        case .idInUse(let kind, let id):
            "there is already a \(kind.singularNoun) with id \(id)"
        case .unknownIDs(let kind, let ids) where ids.count == 1:
            "no \(kind.singularNoun) with id \(ids[0])"
        case .unknownIDs(let kind, let ids):
            "no \(kind.rawValue) with ids \(ids.map(String.init).joined(separator: ", "))"
        }
    }
}
