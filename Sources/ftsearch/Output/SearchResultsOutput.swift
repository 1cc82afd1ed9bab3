import ArgumentParser
import FTSearchKit

/// How `query` prints its results.
enum ResultsFormat: String, CaseIterable, ExpressibleByArgument {
    /// Aligned columns for people at a terminal (the default there).
    case table
    /// One JSON object with the query, the total and the results.
    case json
    /// One JSON result object per line.
    case ndjson
    /// Tab-separated values with a header row (the default when piped).
    case tsv
}

/// Renders search results in each of the ``ResultsFormat``s.
struct SearchResultsOutput {
    let results: SearchResults
    let kinds: Set<Kind>
    /// Marks matched text in tables; nil for no highlighting.
    let highlighter: MatchHighlighter?
    /// Whether the table shows a section per company (the results come sorted by company).
    var groupsByCompany = false
    /// The fields whose value counts were asked for (`--facets`): printed after the results.
    var facetFields: [String] = []

    func rendered(as format: ResultsFormat) -> String {
        switch format {
        case .table: table()
        case .json: json()
        case .ndjson:
            results.hits.map { Self.jsonObject(for: $0) + "\n" }.joined()
                + (facetFields.isEmpty
                    ? "" : JSONValue.object(results.facetMembers(for: facetFields)).jsonText + "\n")
        case .tsv: tsv()
        }
    }

    /// The searchable fields shown for the kinds searched: people's, animals', or both.
    private var fields: [String] { Self.fields(of: kinds) }

    /// The searchable fields of `kinds`, in the order TSV shows them.
    static func fields(of kinds: Set<Kind>) -> [String] {
        kinds.inOrder.flatMap(\.searchableFields)
    }

    // MARK: Table

    func table() -> String {
        guard groupsByCompany else { return plainTable() }
        var output = ""
        var start = results.hits.startIndex
        while start < results.hits.endIndex {
            let company = results.hits[start].record[field: "company"] ?? ""
            let end =
                results.hits[start...].firstIndex { ($0.record[field: "company"] ?? "") != company }
                ?? results.hits.endIndex
            var table = TextTable(
                headers: ["ID", "FIRST NAME", "LAST NAME"], highlightsMatches: highlighter != nil)
            for hit in results.hits[start..<end] {
                table.append(Array(tableRow(for: hit).prefix(3)))
            }
            output +=
                (output.isEmpty ? "" : "\n")
                + (company.isEmpty ? "(no company)" : TextTable.clean(company)) + "\n"
            output += table.rendered().split(separator: "\n").map { "  " + $0 + "\n" }.joined()
            start = end
        }
        return output + footer + facetTables
    }

    private func plainTable() -> String {
        var table = TextTable(headers: tableHeaders, highlightsMatches: highlighter != nil)
        for hit in results.hits {
            table.append(tableRow(for: hit))
        }
        return table.rendered() + footer + facetTables
    }

    /// A table of value counts per facet field, after the results.
    private var facetTables: String {
        facetFields.map { field in
            var table = TextTable(headers: [field.uppercased(), "COUNT"], highlightsMatches: false)
            for value in results.facets[field] ?? [] {
                table.append([
                    TextTable.Cell(text: value.value), TextTable.Cell(text: String(value.count)),
                ])
            }
            var text = "\n" + table.rendered()
            if let stats = results.facetStats[field] {
                text += "min \(Self.plain(stats.min)), max \(Self.plain(stats.max))\n"
            }
            return text
        }.joined()
    }

    /// The one kind shown, when only one is.
    private var singleKind: Kind? { kinds.count == 1 ? kinds.first : nil }

    private var tableHeaders: [String] {
        switch singleKind {
        case .people?: ["ID", "FIRST NAME", "LAST NAME", "COMPANY"]
        case .animals?: ["ID", "NAME"]
        case nil: ["KIND", "ID", "NAME", "COMPANY"]
        }
    }

    private func tableRow(for hit: SearchHit) -> [TextTable.Cell] {
        let record = hit.record
        let id = TextTable.Cell(text: record.id.map(String.init) ?? "")
        switch singleKind {
        case .some(let kind):
            return [id] + kind.searchableFields.map { cell(record[field: $0] ?? "") }
        case nil:
            let company = record[field: "company"] ?? ""
            return [
                TextTable.Cell(text: record.kind.singularNoun), id, cell(record.displayName),
                cell(company),
            ]
        }
    }

    private func cell(_ text: String) -> TextTable.Cell {
        TextTable.Cell(text: text, highlights: highlighter?.matchedRanges(in: text) ?? [])
    }

    /// "… 13 more matches" when the page does not show them all; the did-you-mean line when
    /// nothing matched.
    private var footer: String {
        if let correction = results.didYouMean {
            return "Did you mean: \(TextTable.clean(correction))?\n"
        }
        let shown = results.hits.count
        guard results.total > shown else { return "" }
        return "(\(shown) of \(results.total) matches; --limit 0 shows all)\n"
    }

    /// `18` for a whole number, else Swift's shortest text (`18.5`).
    private static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    // MARK: TSV

    private func tsv() -> String {
        let fields = self.fields
        return TSV.line(["kind", "id", "score"] + fields)
            + results.hits.map { Self.tsvLine(for: $0, fields: fields) }.joined()
    }

    /// One result as a TSV line: kind, id, score, then the values of `fields`.
    static func tsvLine(for hit: SearchHit, fields: [String]) -> String {
        TSV.line(
            [hit.record.kind.rawValue, hit.record.id.map(String.init) ?? "", String(hit.score)]
                + fields.map { hit.record[field: $0] ?? "" })
    }

    // MARK: JSON

    private func json() -> String {
        var object = JSONWriter()
        object.add("query", string: results.query)
        object.add("total", integer: results.total)
        if let correction = results.didYouMean {
            object.add("did_you_mean", string: correction)
        }
        object.add("results", json: JSONWriter.array(results.hits.map(Self.jsonObject)))
        for member in results.facetMembers(for: facetFields) {
            object.add(member.key, member.value)
        }
        return object.object + "\n"
    }

    /// `{"kind", "id", "score", "fields": {...}}` for one result.
    static func jsonObject(for hit: SearchHit) -> String {
        JSONValue.object(hit.jsonMembers).jsonText
    }
}
