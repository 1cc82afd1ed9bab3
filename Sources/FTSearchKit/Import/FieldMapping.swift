import FTSearchFormats
/// Maps the fields of an input record to a person or an animal.
///
/// Field names match case-insensitively, ignoring `_`, `-` and spaces, so `first_name`,
/// `firstName` and `First Name` are one field; common aliases (`given_name`, `surname`,
/// `family_name`, `organization`, `employer`) are accepted too. `created_at` and `updated_at`
/// (ISO 8601 times, as ``SearchIndex/export(_:as:to:)`` writes them) set the record's
/// timestamps. Every other field is kept as an extra field with its JSON type.
enum FieldMapping {
    /// The role an input field plays.
    enum Role: Hashable {
        case id
        /// The searchable field at this index of `kind.searchableFields`.
        case searchable(Int)
        case createdAt
        case updatedAt
        case extra
    }

    private static let aliases: [Kind: [String: Int]] = [
        .people: [
            "firstname": 0, "givenname": 0, "forename": 0, "first": 0,
            "lastname": 1, "surname": 1, "familyname": 1, "last": 1,
            "company": 2, "organization": 2, "organisation": 2, "employer": 2,
        ],
        .animals: ["name": 0, "animalname": 0],
    ]

    /// `First Name` → `firstname`.
    static func normalizedName(_ name: String) -> String {
        String(
            String.UnicodeScalarView(
                name.lowercased().unicodeScalars.filter {
                    $0 != "_" && $0 != "-" && $0 != " "
                }))
    }

    static func role(ofField name: String, in kind: Kind) -> Role {
        let normalized = normalizedName(name)
        switch normalized {
        case "id": return .id
        case "createdat": return .createdAt
        case "updatedat": return .updatedAt
        default: break
        }
        return aliases[kind]?[normalized].map(Role.searchable) ?? .extra
    }

    /// The kind a record with these field names holds: people when it has a first or last
    /// name, animals when it has a name, `nil` when it has neither.
    static func inferredKind(fromFieldNames names: [String]) -> Kind? {
        let roles = Set(names.map { aliases[.people]?[normalizedName($0)] })
        if roles.contains(0) || roles.contains(1) { return .people }
        if names.contains(where: { aliases[.animals]?[normalizedName($0)] != nil }) {
            return .animals
        }
        return nil
    }

    /// Maps `fields` to a record of `kind`.
    ///
    /// - Throws: ``RecordValidationError`` when a searchable field is not a scalar, when two
    ///   fields give the same searchable field, when the id is not an integer, or when the
    ///   record lacks a name.
    static func record(of kind: Kind, from fields: [JSONMember])
        throws(RecordValidationError) -> Record
    {
        var roles = RoleCache()
        return try record(of: kind, from: fields, roles: &roles)
    }

    /// The roles of field names already seen: a file repeats the same few names on every
    /// record, and normalizing a name costs more than mapping the record.
    struct RoleCache {
        private var roles: [Kind: [String: Role]] = [:]
        // The previous record's names and roles by position: records of one file mostly have
        // the same fields in the same order, and comparing short names beats hashing them.
        private var kindByPosition: [Kind?] = []
        private var nameByPosition: [String] = []
        private var roleByPosition: [Role] = []

        mutating func role(ofField name: String, at position: Int, in kind: Kind) -> Role {
            if position < nameByPosition.count && kindByPosition[position] == kind
                && nameByPosition[position] == name
            {
                return roleByPosition[position]
            }
            let role = role(ofField: name, in: kind)
            while nameByPosition.count <= position {
                kindByPosition.append(nil)
                nameByPosition.append("")
                roleByPosition.append(.extra)
            }
            kindByPosition[position] = kind
            nameByPosition[position] = name
            roleByPosition[position] = role
            return role
        }

        mutating func role(ofField name: String, in kind: Kind) -> Role {
            if let role = roles[kind]?[name] { return role }
            let role = FieldMapping.role(ofField: name, in: kind)
            roles[kind, default: [:]][name] = role
            return role
        }
    }

    /// Maps `fields` to a record of `kind`, looking roles up in `roles` (see ``RoleCache``).
    static func record(of kind: Kind, from fields: [JSONMember], roles: inout RoleCache)
        throws(RecordValidationError) -> Record
    {
        var id: Int64?
        var values = kind.searchableFields.map { _ in "" }
        var given = 0  // a bit per searchable field found
        var extra: [JSONMember] = []
        var createdAt: Timestamp?
        var updatedAt: Timestamp?
        extra.reserveCapacity(fields.count)
        for (position, field) in fields.enumerated() {
            switch roles.role(ofField: field.key, at: position, in: kind) {
            case .id:
                id = try identifier(from: field.value)
            case .searchable(let index):
                guard given & (1 << index) == 0 else {
                    let earlier = fields.first {
                        roles.role(ofField: $0.key, in: kind) == .searchable(index)
                    }
                    throw RecordValidationError(
                        "fields \"\(earlier?.key ?? "")\" and \"\(field.key)\" both give "
                            + "the \(kind.searchableFields[index].replacingUnderscores)")
                }
                given |= (1 << index)
                values[index] = try text(of: field)
            case .createdAt:
                createdAt = try timestamp(from: field)
            case .updatedAt:
                updatedAt = try timestamp(from: field)
            case .extra:
                extra.append(field)
            }
        }
        try requireName(values, kind: kind)
        return Record(
            kind: kind, id: id, searchableValues: values, extraFields: extra,
            createdAt: createdAt, updatedAt: updatedAt)
    }

    /// Checks a record made in code as an import checks its input: it needs a name, and no extra
    /// field may have a name that an import would read as something else (`id`, `surname`,
    /// `created_at`), so that an export of it imports back the same.
    ///
    /// - Throws: ``RecordValidationError`` saying what is wrong.
    static func validate(_ record: Record) throws(RecordValidationError) {
        for member in record.extraFields {
            let role = role(ofField: member.key, in: record.kind)
            guard role != .extra else { continue }
            let meaning =
                switch role {
                case .searchable(let index):
                    "the " + record.kind.searchableFields[index].replacingUnderscores
                case .createdAt: "the creation time"
                case .updatedAt: "the time of the last change"
                default: "the id"
                }
            throw RecordValidationError(
                "extra field \"\(member.key)\" would be read as \(meaning); choose another name")
        }
        try requireName(record.searchableValues, kind: record.kind)
    }

    private static func timestamp(from field: JSONMember) throws(RecordValidationError)
        -> Timestamp?
    {
        switch field.value {
        case .null: return nil
        case .string(let text) where text.trimmingSpaces.isEmpty: return nil
        case .string(let text):
            if let timestamp = Timestamp(iso8601: String(text.trimmingSpaces)) { return timestamp }
        default: break
        }
        throw RecordValidationError(
            "\(field.key) must be an ISO 8601 time such as 2026-01-01T12:00:00Z, "
                + "found \(field.value.jsonText)")
    }

    static func identifier(from value: JSONValue) throws(RecordValidationError) -> Int64? {
        switch value {
        case .null: return nil
        case .string(let text) where text.trimmingSpaces.isEmpty: return nil
        case .string(let text), .number(let text):
            guard let id = Int64(text.trimmingSpaces) else {
                throw RecordValidationError("id must be an integer, found \(value.jsonText)")
            }
            return id
        default:
            throw RecordValidationError("id must be an integer, found \(value.jsonText)")
        }
    }

    private static func text(of field: JSONMember) throws(RecordValidationError) -> String {
        switch field.value {
        case .null: return ""
        case .array:
            throw RecordValidationError("field \"\(field.key)\" must be text, found an array")
        case .object:
            throw RecordValidationError("field \"\(field.key)\" must be text, found an object")
        default: return field.value.scalarText ?? ""
        }
    }

    private static func requireName(_ values: [String], kind: Kind) throws(RecordValidationError) {
        switch kind {
        case .people where values[0].trimmingSpaces.isEmpty && values[1].trimmingSpaces.isEmpty:
            throw RecordValidationError("a person needs a first or last name")
        case .animals where values[0].trimmingSpaces.isEmpty:
            throw RecordValidationError("an animal needs a name")
        default: break
        }
    }
}

/// A well-formed record that is not a valid person or animal.
struct RecordValidationError: Error, Equatable, Sendable {
    /// What is wrong, as a short lowercase phrase.
    var reason: String

    /// Creates an error with its reason.
    init(_ reason: String) {
        self.reason = reason
    }
}

extension String {
    /// The text without leading and trailing white space (spaces, tabs, newlines).
    var trimmingSpaces: Substring {
        // Fast path: text that starts and ends with a visible ASCII character.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20,
            last < 0x7F
        {
            return self[...]
        }
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let start = firstIndex(where: { !isSpace($0) }),
            let end = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return self[start...end]
    }

    fileprivate var replacingUnderscores: String {
        String(map { $0 == "_" ? " " : $0 })
    }
}
