/// The order of results shown in sections per company (`query --group-by company`, Ctrl-G in
/// `interactive`, the server's `group_by=company`): companies in alphabetical order ignoring
/// case, no company last, and rank order within each company.
///
/// ```swift
/// let results = try index.search(SearchRequest(text: "ann", kinds: .people))
/// let sections = CompanySections.sorted(results.hits) { $0.record[field: "company"] ?? "" }
/// ```
public enum CompanySections {
    /// `items` in section order: by company, then in their given order.
    ///
    /// - Parameters:
    ///   - items: Results in rank order.
    ///   - company: The company of an item; empty for none.
    public static func sorted<Item>(_ items: [Item], byCompany company: (Item) -> String)
        -> [Item]
    {
        items.enumerated().sorted { left, right in
            let (a, b) = (company(left.element), company(right.element))
            if a.isEmpty != b.isEmpty { return b.isEmpty }
            let (foldedA, foldedB) = (a.lowercased(), b.lowercased())
            return foldedA != foldedB ? foldedA < foldedB : left.offset < right.offset
        }.map(\.element)
    }
}
