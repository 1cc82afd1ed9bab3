import FTSearchKit

/// What an index's settings change in a search: the fields it matches and the fields its hits
/// show.
extension MeilisearchSearchQuery {
    /// Shows only the displayed attributes: `attributesToRetrieve` is cut to them.
    mutating func restrict(to settings: MeilisearchSettings) {
        guard let displayed = settings.displayedAttributes else { return }
        attributesToRetrieve =
            attributesToRetrieve.map { asked in
                asked.contains("*") ? displayed : asked.filter(displayed.contains)
            } ?? displayed
    }

    /// The fields the search matches: `attributesToSearchOn`, which must be among the
    /// searchable attributes when they are set; else those; nil for all of the kind's.
    func searchedFields(kind: Kind, settings: MeilisearchSettings) throws(MeilisearchError)
        -> [String]?
    {
        let asked = attributesToSearchOn.flatMap { $0.contains("*") ? nil : $0 }
        guard let searchable = settings.searchableAttributes else { return asked }
        guard let asked else { return searchable }
        for name in asked where !searchable.contains(name) {
            throw .invalid(
                "invalid_search_attributes_to_search_on",
                "Attribute `\(name)` is not searchable. Available searchable attributes are: `"
                    + searchable.joined(separator: ", ") + "`.")
        }
        return asked
    }
}
