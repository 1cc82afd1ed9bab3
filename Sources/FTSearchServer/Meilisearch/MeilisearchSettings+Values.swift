import FTSearchKit

/// Reading a setting's value as Meilisearch reads it: attribute lists are arrays of strings;
/// `faceting` and `pagination` are objects whose members update those in force.
extension MeilisearchSettings {
    /// `value` checked for `setting` (and, for `searchableAttributes`, for `kind`'s searchable
    /// fields when `kind` is given), merged over `current` for an object setting.
    static func normalized(
        _ value: JSONValue, for setting: Setting, kind: Kind?, over current: JSONValue
    ) throws(MeilisearchError) -> JSONValue {
        switch setting {
        case .displayedAttributes, .filterableAttributes, .sortableAttributes:
            return .array(try attributes(value, setting).map { .string($0) })
        case .searchableAttributes:
            let names = try attributes(value, setting)
            if let kind, !names.contains("*") {
                for name in names where !kind.searchableFields.contains(name) {
                    throw .invalid(
                        setting.errorCode,
                        "ftsearch searches `\(kind.rawValue)` in "
                            + kind.searchableFields.map { "`\($0)`" }.joined(separator: ", ")
                            + " only: `searchableAttributes` may list some of them, or `*`, "
                            + "not `\(name)`.")
                }
            }
            return .array(names.map { .string($0) })
        case .faceting:
            return .object(
                try merged(value, over: current, setting) { key, value throws(MeilisearchError) in
                    switch key {
                    case "maxValuesPerFacet":
                        return try count(value, setting, key, minimum: 0)
                    case "sortFacetValuesBy":
                        return try facetOrders(value, setting)
                    default: return nil
                    }
                })
        case .pagination:
            return .object(
                try merged(value, over: current, setting) { key, value throws(MeilisearchError) in
                    key == "maxTotalHits" ? try count(value, setting, key, minimum: 1) : nil
                })
        }
    }

    private static func attributes(_ value: JSONValue, _ setting: Setting)
        throws(MeilisearchError) -> [String]
    {
        guard case .array(let elements) = value else {
            throw .invalid(
                setting.errorCode,
                "Invalid value type at `.\(setting.rawValue)`: expected an array, but found "
                    + "\(value.jsonText).")
        }
        var names: [String] = []
        for element in elements {
            guard case .string(let name) = element, !name.isEmpty else {
                throw .invalid(
                    setting.errorCode,
                    "Invalid value at `.\(setting.rawValue)`: expected attribute names (strings), "
                        + "found \(element.jsonText).")
            }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The members of `current` with those `value` gives read by `read` (nil: unknown member;
    /// a null member resets it to its default).
    private static func merged(
        _ value: JSONValue, over current: JSONValue, _ setting: Setting,
        _ read: (String, JSONValue) throws(MeilisearchError) -> JSONValue?
    ) throws(MeilisearchError) -> [JSONMember] {
        guard case .object(let given) = value else {
            throw .invalid(
                setting.errorCode,
                "Invalid value type at `.\(setting.rawValue)`: expected an object, but found "
                    + "\(value.jsonText).")
        }
        guard case .object(var members) = current,
            case .object(let defaults) = setting.defaultValue
        else { preconditionFailure("faceting and pagination are objects") }
        for member in given {
            guard let position = members.firstIndex(where: { $0.key == member.key }) else {
                throw .invalid(
                    setting.errorCode,
                    "Unknown field `\(member.key)` inside `.\(setting.rawValue)`: expected one of "
                        + members.map { "`\($0.key)`" }.joined(separator: ", ") + ".")
            }
            if case .null = member.value {
                members[position] = defaults[position]
            } else if let read = try read(member.key, member.value) {
                members[position].value = read
            }
        }
        return members
    }

    private static func count(_ value: JSONValue, _ setting: Setting, _ key: String, minimum: Int)
        throws(MeilisearchError) -> JSONValue
    {
        guard case .number(let literal) = value, let number = Int(literal), number >= minimum,
            number <= Int(UInt32.max)
        else {
            throw .invalid(
                setting.errorCode,
                "Invalid value at `.\(setting.rawValue).\(key)`: expected an integer of at least "
                    + "\(minimum), found \(value.jsonText).")
        }
        return .number(String(number))
    }

    /// `{"*": "alpha", "genre": "count"}`: each value `alpha` or `count`; `*` is kept first
    /// and is `alpha` unless given.
    private static func facetOrders(_ value: JSONValue, _ setting: Setting)
        throws(MeilisearchError) -> JSONValue
    {
        guard case .object(let given) = value else {
            throw .invalid(
                setting.errorCode,
                "Invalid value type at `.faceting.sortFacetValuesBy`: expected an object, but "
                    + "found \(value.jsonText).")
        }
        var orders = [JSONMember(key: "*", value: .string("alpha"))]
        for member in given {
            guard case .string(let order) = member.value, order == "alpha" || order == "count"
            else {
                throw .invalid(
                    setting.errorCode,
                    "Unknown value \(member.value.jsonText) at "
                        + "`.faceting.sortFacetValuesBy.\(member.key)`: expected one of `alpha`, "
                        + "`count`.")
            }
            if let position = orders.firstIndex(where: { $0.key == member.key }) {
                orders[position].value = member.value
            } else {
                orders.append(member)
            }
        }
        return .object(orders)
    }
}
