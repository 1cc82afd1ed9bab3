/// The order of results shown in sections per company (`query --group-by company`, Ctrl-G in
/// `interactive`): companies in alphabetical order ignoring case, no company last, and rank
/// order within each company.
enum CompanySections {
    static func sorted<Item>(_ items: [Item], byCompany company: (Item) -> String) -> [Item] {
        items.enumerated().sorted { left, right in
            let (a, b) = (company(left.element), company(right.element))
            if a.isEmpty != b.isEmpty { return b.isEmpty }
            let (foldedA, foldedB) = (a.lowercased(), b.lowercased())
            return foldedA != foldedB ? foldedA < foldedB : left.offset < right.offset
        }.map(\.element)
    }
}
