import FTSearchKit

/// `filter`, `sort` and `facets` of a Meilisearch search, read into the library's types
/// (``Filter``, ``SortKey``) as Meilisearch reads them, and checked against the index's
/// `filterableAttributes` and `sortableAttributes` when those are set, with Meilisearch's
/// error codes and messages.
extension MeilisearchSearchQuery {
    /// A string, or an array whose elements are ANDed, each a string or an array of strings
    /// ORed (Meilisearch's array form); null, an empty string or an empty array is no filter.
    ///
    /// - Returns: The filter, and the expressions it was read from (an error names the one it
    ///   is about).
    static func filter(_ value: JSONValue) throws(MeilisearchError) -> (Filter?, [String]) {
        var groups: [[String]] = []
        switch value {
        case .null: return (nil, [])
        case .string(let text): groups = [[text]]
        case .array(let elements):
            for element in elements {
                switch element {
                case .string(let text): groups.append([text])
                case .array(let inner):
                    var texts: [String] = []
                    for item in inner {
                        guard case .string(let text) = item else { throw filterType(item) }
                        texts.append(text)
                    }
                    groups.append(texts)
                default: throw filterType(element)
                }
            }
        default: throw filterType(value)
        }
        groups = groups.map { $0.filter { !$0.trimmingSpaces().isEmpty } }.filter { !$0.isEmpty }
        var conjuncts: [Filter] = []
        for group in groups {
            var disjuncts: [Filter] = []
            for text in group {
                do {
                    disjuncts.append(try Filter(parsing: text))
                } catch {
                    throw .invalid(
                        "invalid_search_filter",
                        "\(error.message) at column \(error.column).\n"
                            + "\(error.column):\(error.column + 1) \(text)")
                }
            }
            conjuncts.append(disjuncts.count == 1 ? disjuncts[0] : .or(disjuncts))
        }
        let filter: Filter? =
            conjuncts.isEmpty ? nil : conjuncts.count == 1 ? conjuncts[0] : .and(conjuncts)
        return (filter, groups.flatMap { $0 })
    }

    private static func filterType(_ value: JSONValue) -> MeilisearchError {
        .invalid(
            "invalid_search_filter",
            "Invalid type for filter subexpression: expected: String, Array, found: "
                + "\(value.jsonText).")
    }

    /// `["last_name:asc", "age:desc"]`.
    static func sortKeys(_ value: JSONValue) throws(MeilisearchError) -> [SortKey] {
        guard let texts = try strings(value, code: "invalid_search_sort", name: "sort") else {
            return []
        }
        var keys: [SortKey] = []
        for text in texts {
            do {
                keys.append(try SortKey(parsing: text))
            } catch {
                throw .invalid(
                    "invalid_search_sort",
                    "Invalid syntax for the sort parameter: expected expression ending by `:asc` "
                        + "or `:desc`, found `\(text)`.")
            }
        }
        return keys
    }

    /// The fields `facets` asks for: `*` is every filterable attribute, which needs
    /// `filterableAttributes` set (ftsearch does not list every field of an index).
    func facetFields(kind: Kind, settings: MeilisearchSettings) throws(MeilisearchError)
        -> [String]
    {
        var fields: [String] = []
        for field in facets ?? [] {
            if field == "*" {
                guard let filterable = settings.filterableAttributes else {
                    throw .invalid(
                        "invalid_search_facets",
                        "Index `\(kind.rawValue)`: Invalid facet distribution: `*` stands for "
                            + "every filterable attribute, and this index does not have "
                            + "configured filterable attributes: name the facets.")
                }
                fields += filterable.filter { !$0.contains("*") }
            } else {
                fields.append(field)
            }
        }
        var seen = Set<String>()
        return fields.filter { seen.insert($0).inserted }
    }

    /// Refuses a filter, facet or sort on an attribute outside a non-empty
    /// `filterableAttributes` or `sortableAttributes`, as Meilisearch does.
    func checkAttributes(_ facetFields: [String], kind: Kind, settings: MeilisearchSettings)
        throws(MeilisearchError)
    {
        let index = "Index `\(kind.rawValue)`: "
        if let filterable = settings.filterableAttributes {
            let patterns = filterable.sorted()
            for field in filter?.fields ?? [] where !Self.allows(field, patterns) {
                throw .invalid(
                    "invalid_search_filter",
                    index + "Attribute `\(field)` is not filterable. Available filterable "
                        + "attribute patterns are: "
                        + patterns.map { "`\($0)`" }.joined(separator: ", ") + "."
                        + Self.place(of: field, in: filterExpressions))
            }
            for field in facetFields where !Self.allows(field, patterns) {
                throw .invalid(
                    "invalid_search_facets",
                    index + "Invalid facet distribution: Pattern `\(field)` is not filterable. "
                        + "Available filterable attributes patterns are: `"
                        + patterns.joined(separator: ", ") + "`.")
            }
        }
        if let sortable = settings.sortableAttributes {
            let patterns = sortable.sorted()
            for key in sort where !Self.allows(key.field, patterns) {
                throw .invalid(
                    "invalid_search_sort",
                    index + "Attribute `\(key.field)` is not sortable. Available sortable "
                        + "attributes are: `" + patterns.joined(separator: ", ") + "`.")
            }
        }
    }

    /// Whether `field` is one of `patterns`: named, under a named object (`address` allows
    /// `address.city`), or matched by a pattern ending in `*`.
    static func allows(_ field: String, _ patterns: [String]) -> Bool {
        patterns.contains { pattern in
            pattern == field || field.hasPrefix(pattern + ".")
                || (pattern.hasSuffix("*") && field.hasPrefix(pattern.dropLast()))
        }
    }

    /// `\n1:5 many = Glass`: where `field` is in the expression that names it, as Meilisearch
    /// shows it (columns from 1, the end one past the name).
    private static func place(of field: String, in expressions: [String]) -> String {
        for expression in expressions {
            let characters = Array(expression)
            let name = Array(field)
            guard characters.count >= name.count,
                let at = (0...(characters.count - name.count)).first(where: {
                    characters[$0..<$0 + name.count].elementsEqual(name)
                })
            else { continue }
            return "\n\(at + 1):\(at + 1 + name.count) \(expression)"
        }
        return ""
    }
}
