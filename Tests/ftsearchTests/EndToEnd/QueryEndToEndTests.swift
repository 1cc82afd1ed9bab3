import Foundation
import Testing
import FTSearchTestSupport

@Suite struct QueryEndToEndTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner.withFixtures()
    }

    private func names(_ arguments: [String]) throws -> [String] {
        try ftsearch.resultNames(arguments)
    }

    @Test func annFindsNamesAndCompaniesWithTheWholeWordFirst() throws {
        let people = try names(["ann", "--kind", "people"])
        #expect(people.first == "Ann Smith")
        #expect(
            Set(people) == [
                "Ann Smith", "Anna Müller", "Annette Dubois", "Annabelle Lee", "Mary Smith-Jones",
                "Zoe Annan",
            ])
        #expect(people.firstIndex(of: "Annabelle Lee")! > people.firstIndex(of: "Ann Smith")!)
    }

    @Test(arguments: [
        ("zoe", ["Zoe Annan", "Zoë Ødegaard", "Zoë"]),
        ("ann mül", ["Anna Müller"]),
        ("o'br", ["Seán O'Brien"]),
        ("smith-jones", ["Mary Smith-Jones"]),
        ("AT&T", ["Annabelle Lee"]),
        ("philosophy and", ["Søren Kierkegaard"]),
        ("mr. o'malley", ["Mr. O'Malley"]),
    ])
    func examples(text: String, expected: [String]) throws {
        #expect(Set(try names([text])) == Set(expected))
    }

    @Test(arguments: [
        "\"", "\"ann\"", "ann*", "*", "-", "ann -smith", ":", "first_name:ann", "^ann", "(", "ann)",
        "AND", "OR",
        "NOT ann", "NEAR(ann, 2)", "ann AND OR NOT", "'", "\\", "%_", "ann\u{1}", "{}", "+", "😀",
        "ﬁ", "İstanbul",
    ])
    func anyTextIsLiteral(text: String) throws {
        let outcome = try ftsearch.run(["query", "--format", "json", "--", text])
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardError.isEmpty)
        #expect(outcome.standardOutput.hasPrefix("{\"query\":"))
    }

    @Test func textWithoutLettersOrDigitsMatchesNothing() throws {
        #expect(
            try ftsearch.output(["query", "*-\"'", "--format", "json"])
                == "{\"query\":\"*-\\\"'\",\"total\":0,\"results\":[]}\n")
    }

    @Test func leadingDashTextGoesAfterDoubleDash() throws {
        try ftsearch.run(
            ["import", "-", "--format", "csv"], input: "first_name,last_name\n-Ann-,Dash\n")
        #expect(try names(["--kind", "people", "--", "-ann"]).contains("-Ann- Dash"))
        let outcome = try ftsearch.run(["query", "-ann"])
        #expect(outcome.exitCode == 64)
    }

    @Test func emptyTextListsEveryRecordInNameOrder() throws {
        let people = try names(["", "--kind", "people", "--limit", "0"])
        #expect(
            people == [
                "Zoe Annan", "Annette Dubois", "Søren Kierkegaard", "Annabelle Lee", "Chloé Martin",
                "Anna Müller",
                "Seán O'Brien", "Ann Smith", "Mary Smith-Jones", "Łukasz Wiśniewski",
                "José Álvarez", "Zoë Ødegaard",
            ])
        let animals = try names(["  ", "--kind", "animals"])
        #expect(animals == ["Annie", "Mr. O'Malley", "Rex", "Zoë", "Ánsar"])
    }

    @Test func jsonHasQueryTotalAndResults() throws {
        let json = try ftsearch.output(["query", "ann", "--limit", "2", "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["query"] as? String == "ann")
        #expect(object["total"] as? Int == 7)
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 2)
        let first = results[0]
        #expect(first["kind"] as? String == "people")
        #expect(first["id"] as? Int == 1)
        #expect((first["score"] as? Double ?? 0) > 0)
        let fields = try #require(first["fields"] as? [String: Any])
        #expect(fields["first_name"] as? String == "Ann")
        #expect(fields["email"] as? String == "ann@annex.example")
    }

    @Test func ndjsonIsOneResultPerLine() throws {
        let lines = try ftsearch.output(["query", "ann", "--format", "ndjson", "--limit", "3"])
            .split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["kind"] != nil && object?["fields"] != nil)
        }
    }

    @Test func limitOffsetAndCount() throws {
        let all = try names(["ann", "--limit", "0"])
        #expect(all.count == 7)
        #expect(try names(["ann", "--limit", "2", "--offset", "3"]) == Array(all[3..<5]))
        #expect(try ftsearch.output(["query", "ann", "--count"]) == "7\n")
        #expect(try ftsearch.output(["query", "ann", "--count", "--kind", "animals"]) == "1\n")
        #expect(try ftsearch.run(["query", "ann", "--limit", "-1"]).exitCode == 64)
    }

    @Test func tsvEscapesTabsNewlinesAndBackslashes() throws {
        try ftsearch.run(
            ["import", "-", "--format", "ndjson"],
            input:
                "{\"first_name\": \"Tab\\there\", \"last_name\": \"New\\nline\", \"company\": \"Back\\\\slash\\r\"}\n"
        )
        let tsv = try ftsearch.output(["query", "tab", "--format", "tsv", "--kind", "people"])
        #expect(tsv.hasSuffix("\tTab\\there\tNew\\nline\tBack\\\\slash\\r\n"))
    }

    @Test func tableHasAlignedColumnsAndAFooterWhenCut() throws {
        let table = try ftsearch.output([
            "query", "ann", "--format", "table", "--kind", "people", "--limit", "2",
        ])
        let lines = table.split(separator: "\n")
        #expect(lines[0].hasPrefix("ID  FIRST NAME  LAST NAME  COMPANY"))
        #expect(lines[1].hasPrefix("1   Ann         Smith      Annex Ltd"))
        #expect(lines.last == "(2 of 6 matches; --limit 0 shows all)")
        #expect(!table.contains("\u{1B}["))
    }

    @Test func groupByCompanyPrintsSections() throws {
        let table = try ftsearch.output([
            "query", "", "--group-by", "company", "--format", "table", "--limit", "0",
        ])
        #expect(
            table.contains(
                "Annex Ltd\n  ID  FIRST NAME  LAST NAME\n  1   Ann         Smith\n  7   Mary        Smith-Jones\n"
            ))
        let companies: [String] = table.split(separator: "\n").filter { !$0.hasPrefix("  ") }.map(
            String.init)
        let sorted = companies.sorted { $0.lowercased() < $1.lowercased() }
        #expect(companies == sorted)
    }

    @Test func missingDatabaseIsExit66() throws {
        let outcome = try ftsearch.run([
            "query", "ann", "--db", ftsearch.directory + "/none.sqlite",
        ])
        #expect(outcome.exitCode == 66)
        #expect(outcome.standardError.contains("no database at"))
    }
}
