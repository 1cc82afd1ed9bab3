import FTSearchKit

/// The settings of one index of the Meilisearch-compatible API that ftsearch applies:
/// `filterableAttributes`, `sortableAttributes`, `searchableAttributes`,
/// `displayedAttributes`, `faceting` and `pagination`. Only what was set is kept (``members``);
/// the rest reads as its default. The other members of Meilisearch's settings object are shown
/// at the fixed values ftsearch works with, and a write may repeat them but not change them.
///
/// By default every attribute is filterable and sortable (Meilisearch's default is none): an
/// empty `filterableAttributes` or `sortableAttributes` means all, a non-empty one restricts
/// filters (and facets) or sort to its attributes, as Meilisearch does.
struct MeilisearchSettings: Sendable, Equatable {
    /// A setting ftsearch applies, by its member name; `route` is its path under `/settings/`.
    enum Setting: String, CaseIterable, Sendable {
        case displayedAttributes, searchableAttributes, filterableAttributes, sortableAttributes
        case faceting, pagination

        var route: String {
            switch self {
            case .displayedAttributes: "displayed-attributes"
            case .searchableAttributes: "searchable-attributes"
            case .filterableAttributes: "filterable-attributes"
            case .sortableAttributes: "sortable-attributes"
            case .faceting: "faceting"
            case .pagination: "pagination"
            }
        }

        /// `invalid_settings_filterable_attributes`.
        var errorCode: String { "invalid_settings_" + MeilisearchSearchQuery.snakeCase(rawValue) }

        var defaultValue: JSONValue {
            switch self {
            case .displayedAttributes, .searchableAttributes: .array([.string("*")])
            case .filterableAttributes, .sortableAttributes: .array([])
            case .faceting:
                .object([
                    JSONMember(key: "maxValuesPerFacet", value: .number("100")),
                    JSONMember(
                        key: "sortFacetValuesBy",
                        value: .object([JSONMember(key: "*", value: .string("alpha"))])),
                ])
            case .pagination: .object([JSONMember(key: "maxTotalHits", value: .number("1000"))])
            }
        }
    }

    /// The members of Meilisearch's settings object that ftsearch does not change, at the
    /// values that describe it.
    static let fixedMembers: [JSONMember] = [
        JSONMember(key: "stopWords", value: .array([])),
        JSONMember(key: "nonSeparatorTokens", value: .array([])),
        JSONMember(key: "separatorTokens", value: .array([])),
        JSONMember(key: "dictionary", value: .array([])),
        JSONMember(key: "synonyms", value: .object([])),
        JSONMember(key: "distinctAttribute", value: .null),
        JSONMember(key: "embedders", value: .object([])),
        JSONMember(key: "searchCutoffMs", value: .null),
        JSONMember(key: "localizedAttributes", value: .null),
        JSONMember(key: "facetSearch", value: .bool(true)),
    ]

    /// The settings that were set, normalized, in the order of ``Setting``.
    private(set) var members: [Setting: JSONValue] = [:]

    init() {}

    /// Reads the members kept in the settings file; one that does not read is left unset.
    init(kept: [JSONMember]) {
        for member in kept {
            guard let setting = Setting(rawValue: member.key),
                let value = try? Self.normalized(
                    member.value, for: setting, kind: nil, over: setting.defaultValue)
            else { continue }
            members[setting] = value
        }
    }

    /// The value of `setting`: as set, or its default.
    func value(of setting: Setting) -> JSONValue {
        members[setting] ?? setting.defaultValue
    }

    /// The whole settings object, as `GET /indexes/{uid}/settings` answers it.
    var jsonObject: JSONValue {
        .object(
            Setting.allCases.map { JSONMember(key: $0.rawValue, value: value(of: $0)) }
                + Self.fixedMembers)
    }

    /// What the settings file keeps: the settings that were set.
    var keptMembers: [JSONMember] {
        Setting.allCases.compactMap { setting in
            members[setting].map { JSONMember(key: setting.rawValue, value: $0) }
        }
    }

    /// Sets `setting` to `value` (null resets it), checked for `kind`.
    ///
    /// - Returns: The value now in force, as the task's details show it.
    /// - Throws: 400 `invalid_settings_*` for a value of the wrong shape.
    mutating func set(_ setting: Setting, to value: JSONValue, kind: Kind)
        throws(MeilisearchError) -> JSONValue
    {
        if case .null = value {
            members[setting] = nil
            return setting.defaultValue
        }
        let normalized = try Self.normalized(
            value, for: setting, kind: kind, over: self.value(of: setting))
        members[setting] = normalized == setting.defaultValue ? nil : normalized
        return normalized
    }

    /// Checks the members of a `PATCH /indexes/{uid}/settings` body: every one a setting
    /// ftsearch applies, or a fixed one at its value.
    static func check(fixed member: JSONMember) throws(MeilisearchError) {
        guard let fixed = fixedMembers.first(where: { $0.key == member.key }) else {
            throw .invalid(
                "bad_request",
                "Unknown field `\(member.key)`: expected one of "
                    + (Setting.allCases.map(\.rawValue) + fixedMembers.map(\.key)).map { "`\($0)`" }
                    .joined(separator: ", ") + ".")
        }
        guard member.value == fixed.value || member.value == .null else {
            throw .invalid(
                "invalid_settings_" + MeilisearchSearchQuery.snakeCase(member.key),
                "ftsearch does not change `\(member.key)`: it is always \(fixed.value.jsonText).")
        }
    }

    // MARK: Typed views

    /// The attributes filters and facets may name; nil when every one may.
    var filterableAttributes: [String]? { restriction(.filterableAttributes) }

    /// The attributes sort may name; nil when every one may.
    var sortableAttributes: [String]? { restriction(.sortableAttributes) }

    /// The fields a search matches; nil for all of the kind's searchable fields.
    var searchableAttributes: [String]? { restriction(.searchableAttributes) }

    /// The fields a hit shows; nil for all.
    var displayedAttributes: [String]? { restriction(.displayedAttributes) }

    var maxValuesPerFacet: Int { integer(.faceting, "maxValuesPerFacet") ?? 100 }

    var maxTotalHits: Int { integer(.pagination, "maxTotalHits") ?? 1000 }

    /// How the values of `field`'s facet are ordered: by `count`, or `alpha` (the default).
    func facetOrder(of field: String) -> String {
        guard case .object(let faceting) = value(of: .faceting),
            case .object(let orders)? = faceting.first(where: { $0.key == "sortFacetValuesBy" })?
                .value
        else { return "alpha" }
        let order = orders.first { $0.key == field } ?? orders.first { $0.key == "*" }
        return order?.value.scalarText ?? "alpha"
    }

    private func restriction(_ setting: Setting) -> [String]? {
        guard case .array(let elements) = value(of: setting) else { return nil }
        let names = elements.compactMap(\.scalarText)
        return names.isEmpty || names.contains("*") ? nil : names
    }

    private func integer(_ setting: Setting, _ key: String) -> Int? {
        guard case .object(let members) = value(of: setting) else { return nil }
        return members.first { $0.key == key }?.value.scalarText.flatMap { Int($0) }
    }
}
