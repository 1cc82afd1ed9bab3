import Foundation
import Testing
import FTSearchTestSupport

/// `query --filter/--sort/--facets` as a user runs it, on the fixtures.
@Suite struct FilterEndToEndTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner.withFixtures()
    }

    @Test func theTablePrintsTheCountsAfterTheResults() throws {
        let table = try ftsearch.output([
            "query", "", "--filter", "company = 'annex ltd' OR age < 10", "--facets", "company,age",
            "--format", "table", "--color", "never",
        ])
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
        #expect(
            lines == [
                "KIND    ID  NAME              COMPANY", "person  1   Ann Smith         Annex Ltd",
                "person  7   Mary Smith-Jones  Annex Ltd", "animal  1   Annie", "",
                "COMPANY    COUNT", "Annex Ltd  2", "", "AGE  COUNT", "3    1", "34   1",
                "min 3, max 34", "",
            ])
    }

    @Test func jsonAndNDJSONCarryTheFacets() throws {
        let arguments = [
            "query", "ann", "--filter", "tags EXISTS OR vip = true", "--sort",
            "last_name:asc",
            "--facets", "tags,vip", "--kind", "people",
        ]
        let json = try ftsearch.output(arguments + ["--format", "json"])
        #expect(json.contains(#""total":2,"#))
        #expect(
            json.hasSuffix(
                #""facets":{"tags":{"berlin":1,"founder":1},"vip":{"true":1}},"facet_stats":{}}"#
                    + "\n"))
        let lines = try ftsearch.output(arguments + ["--format", "ndjson"]).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(
            lines[0].contains(#""last_name":"Dubois""#)
                && lines[1].contains(#""last_name":"Müller""#))
        #expect(
            lines[2]
                == #"{"facets":{"tags":{"berlin":1,"founder":1},"vip":{"true":1}},"facet_stats":{}}"#
        )
    }

    @Test func countWorksWithAFilter() throws {
        #expect(
            try ftsearch.output(["query", "", "--filter", "company = 'ANNEX LTD'", "--count"])
                == "2\n")
        #expect(
            try ftsearch.output(["query", "a", "--filter", "nothing EXISTS", "--count"]) == "0\n")
    }

    @Test(arguments: [
        (["--filter", "age >="], "filter: expected a value after '>=' at column 7"),
        (
            ["--filter", "tags IN [a"],
            "filter: expected ']' to close the list before the end at column 11"
        ),
        (["--sort", "age"], "sort: 'age': expected field:asc or field:desc"),
    ])
    func aMalformedExpressionIsAUsageError(arguments: [String], message: String) throws {
        let outcome = try ftsearch.run(["query", "ann"] + arguments)
        #expect(outcome.exitCode == 64)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains("Error: " + message))
    }
}
