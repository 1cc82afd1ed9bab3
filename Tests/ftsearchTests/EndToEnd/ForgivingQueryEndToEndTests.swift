import Foundation
import Testing
import FTSearchTestSupport

/// `ftsearch query --match`, `--fields`, `--weights`, folding and did-you-mean, through the
/// binary on the fixtures.
@Suite struct ForgivingQueryEndToEndTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner.withFixtures()
    }

    private func names(_ arguments: [String]) throws -> [String] {
        try ftsearch.resultNames(arguments)
    }

    @Test(arguments: [
        (["nna", "--match", "substring"], ["Annabelle Lee", "Zoe Annan", "Anna Müller"]),
        (["ÜLL", "--match", "substring"], ["Anna Müller"]),
        (["ann", "--match", "exact"], ["Ann Smith"]),
        (
            ["smiht", "--match", "fuzzy", "--kind", "people"],
            ["Ann Smith", "Mary Smith-Jones", "Zoë Ødegaard"]
        ),
        (["smiht"], []),
        (["lukasz"], ["Łukasz Wiśniewski"]),
        (["soren"], ["Søren Kierkegaard"]),
    ])
    func eachModeFindsWhatItShould(arguments: [String], expected: [String]) throws {
        #expect(Set(try names(arguments)) == Set(expected))
    }

    @Test func substringRanksTheWholeWordFirstAndCountsEveryMatch() throws {
        let found = try names(["ann", "--match", "substring", "--kind", "people"])
        #expect(found.first == "Ann Smith")
        #expect(found.contains("Zoe Annan"))
        let count = try ftsearch.output(["query", "ann", "--match", "substring", "--count"])
        let prefixCount = try ftsearch.output(["query", "ann", "--count"])
        #expect(
            Int(count.trimmingCharacters(in: .newlines))! >= Int(
                prefixCount.trimmingCharacters(in: .newlines))!)
    }

    @Test func didYouMeanEndsTheTableAndIsAJSONField() throws {
        let table = try ftsearch.output(["query", "smiht", "--format", "table", "--no-history"])
        #expect(table.split(separator: "\n").last == "Did you mean: smith?")
        let json = try ftsearch.output(["query", "smiht", "--format", "json", "--no-history"])
        #expect(
            json == "{\"query\":\"smiht\",\"total\":0,\"did_you_mean\":\"smith\",\"results\":[]}\n")
        let tsv = try ftsearch.output(["query", "smiht", "--format", "tsv", "--no-history"])
        #expect(tsv == "kind\tid\tscore\tfirst_name\tlast_name\tcompany\tname\n")
        #expect(try ftsearch.output(["query", "smiht", "--format", "ndjson"]).isEmpty)
    }

    @Test func aSearchWithResultsGetsNoSuggestion() throws {
        let json = try ftsearch.output(["query", "smith", "--format", "json", "--no-history"])
        #expect(!json.contains("did_you_mean"))
        let table = try ftsearch.output(["query", "smith", "--format", "table", "--no-history"])
        #expect(!table.contains("Did you mean"))
    }

    @Test func fieldsRestrictMatching() throws {
        #expect(
            Set(try names(["ann", "--fields", "company", "--kind", "people"])) == [
                "Ann Smith", "Mary Smith-Jones",
            ])
    }

    @Test func unknownFieldIsAUsageErrorListingTheValidOnes() throws {
        let outcome = try ftsearch.run(["query", "ann", "--fields", "first_name,nmae"])
        #expect(outcome.exitCode == 64)
        #expect(
            outcome.standardError.hasPrefix(
                "Error: unknown field 'nmae'; valid fields: first_name, last_name, company, name\n")
        )
        let people = try ftsearch.run(["query", "ann", "--kind", "people", "--weights", "name=3"])
        #expect(people.exitCode == 64)
        #expect(people.standardError.contains("valid fields: first_name, last_name, company\n"))
        let malformed = try ftsearch.run(["query", "ann", "--weights", "company"])
        #expect(malformed.exitCode == 64)
    }

    @Test func weightsChangeTheOrder() throws {
        // Annette (a first name) ranks above Mary Smith-Jones (company "Annex Ltd") by default,
        // below her when the company weighs more.
        let byDefault = try names(["ann", "--kind", "people"])
        #expect(
            byDefault.firstIndex(of: "Annette Dubois")! < byDefault.firstIndex(
                of: "Mary Smith-Jones")!)
        let byCompany = try names([
            "ann", "--kind", "people", "--weights", "first_name=1,company=100",
        ])
        #expect(
            byCompany.firstIndex(of: "Annette Dubois")! > byCompany.firstIndex(
                of: "Mary Smith-Jones")!)
    }
}
