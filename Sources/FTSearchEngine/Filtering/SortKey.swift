/// One field a search orders its matches by (`last_name:asc`, `age:desc`). Records without
/// the field come last either way; numbers come before text.
public struct SortKey: Sendable, Equatable, CustomStringConvertible {
    /// The field, as a filter names it (`last_name`, `address.city`).
    public var field: String
    /// Whether the highest value comes first.
    public var descending: Bool

    /// Creates a sort key.
    public init(field: String, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }

    /// Parses `field:asc` or `field:desc`, Meilisearch's form.
    ///
    /// - Throws: ``SortKeySyntaxError`` when the text is not of that form.
    public init(parsing text: String) throws(SortKeySyntaxError) {
        let trimmed = text.trimmingWhitespace
        guard let colon = trimmed.lastIndex(of: ":") else {
            throw SortKeySyntaxError(text: text, problem: "expected field:asc or field:desc")
        }
        let field = String(trimmed[..<colon]).trimmingWhitespace
        let direction = String(trimmed[trimmed.index(after: colon)...]).trimmingWhitespace
        guard !field.isEmpty else {
            throw SortKeySyntaxError(text: text, problem: "the field name is missing")
        }
        switch direction {
        case "asc": self.init(field: field)
        case "desc": self.init(field: field, descending: true)
        default:
            throw SortKeySyntaxError(
                text: text, problem: "the direction must be asc or desc, not '\(direction)'")
        }
    }

    /// Parses a comma-separated list of sort keys: `last_name:asc,age:desc`.
    public static func parseList(_ text: String) throws(SortKeySyntaxError) -> [SortKey] {
        var keys: [SortKey] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            keys.append(try SortKey(parsing: String(part)))
        }
        return keys
    }

    /// `field:asc` or `field:desc`.
    public var description: String { "\(field):\(descending ? "desc" : "asc")" }
}

/// A sort key that does not parse.
public struct SortKeySyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text given.
    public var text: String
    /// What is wrong with it.
    public var problem: String

    /// `sort: 'age:up': the direction must be asc or desc, not 'up'`.
    public var description: String { "sort: '\(text)': \(problem)" }
}

extension StringProtocol {
    /// The text without white space at either end.
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
