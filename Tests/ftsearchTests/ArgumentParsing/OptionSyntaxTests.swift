import Testing

@testable import ftsearch

@Suite struct OptionSyntaxTests {
    @Test(arguments: [
        (["query"], 20),
        (["query", "--limit", "5"], 5),
        (["query", "--limit=5"], 5),
        (["query", "-l", "5"], 5),
        (["query", "-l5"], 5),
        (["query", "-l=5"], 5),
        (["query", "ann", "--limit", "5"], 5),
        (["query", "--limit", "3", "--limit", "7"], 7),
        (["query", "-l", "3", "--limit=7", "-l9"], 9),
    ])
    func limitIsReadFromEverySpelling(arguments: [String], expected: Int) throws {
        let query: SampleQuery = try parseSample(arguments)
        #expect(query.limit == expected)
    }

    @Test func optionsAndPositionalArgumentsMayComeInAnyOrder() throws {
        let query: SampleQuery = try parseSample(["query", "--kind", "people", "ann", "-l", "2"])
        #expect(query.text == "ann")
        #expect(query.kind == .people)
        #expect(query.limit == 2)
    }

    @Test func defaultsApplyWhenNothingIsGiven() throws {
        let query: SampleQuery = try parseSample(["query"])
        #expect(query.text == "")
        #expect(query.limit == 20)
        #expect(query.kind == .all)
        #expect(query.format == nil)
        #expect(query.fields == [])
        #expect(query.count == false)
        #expect(query.history == true)
        #expect(query.global.db == "index.sqlite")
    }

    @Test func doubleDashMakesEverythingAfterItPositional() throws {
        let query: SampleQuery = try parseSample(["query", "--limit", "3", "--", "-ann"])
        #expect(query.text == "-ann")
        #expect(query.limit == 3)

        let optionLookalike: SampleQuery = try parseSample(["query", "--", "--limit"])
        #expect(optionLookalike.text == "--limit")
        #expect(optionLookalike.limit == 20)
    }

    @Test func doubleDashKeepsLaterDoubleDashesAsValues() throws {
        let delete: SampleHistoryDelete = try parseSample(["history", "delete", "--", "1", "2"])
        #expect(delete.ids == [1, 2])
        let query: SampleQuery = try parseSample(["query", "--", "--"])
        #expect(query.text == "--")
    }

    @Test func negativeNumbersAreValuesNotOptions() throws {
        let run = runSample(["query", "--limit", "-1"])
        #expect(run.exitCode == 64)
        #expect(run.standardError.hasPrefix("Error: --limit must be at least 0\n"))

        let delete: SampleHistoryDelete = try parseSample(["history", "delete", "-3", "4"])
        #expect(delete.ids == [-3, 4])
    }

    @Test func singleDashIsAValue() throws {
        let query: SampleQuery = try parseSample(["query", "--db", "-", "-"])
        #expect(query.global.db == "-")
        #expect(query.text == "-")
    }

    @Test func enumerationOptionsReadTheirRawValues() throws {
        let query: SampleQuery = try parseSample(["query", "--kind", "animals", "--format=tsv"])
        #expect(query.kind == .animals)
        #expect(query.format == .tsv)
    }

    @Test func repeatingOptionCollectsEveryValueInOrder() throws {
        let query: SampleQuery = try parseSample([
            "query", "--field", "name", "--field=age", "--field", "city",
        ])
        #expect(query.fields == ["name", "age", "city"])
    }

    @Test func repeatingArgumentTakesAllRemainingValues() throws {
        let delete: SampleHistoryDelete = try parseSample(["history", "delete", "3", "4", "10"])
        #expect(delete.ids == [3, 4, 10])
    }

    @Test func flagsAreSetByLongAndShortNames() throws {
        #expect(try parseSample(["query", "--count"], as: SampleQuery.self).count)
        #expect(try parseSample(["query", "-c"], as: SampleQuery.self).count)
    }

    @Test func shortFlagsCombineAndTheLastMayTakeAValue() throws {
        let attached: SampleQuery = try parseSample(["query", "-cl5"])
        #expect(attached.count)
        #expect(attached.limit == 5)

        let separate: SampleQuery = try parseSample(["query", "-cl", "7"])
        #expect(separate.count)
        #expect(separate.limit == 7)
    }

    @Test(arguments: [
        (["query"], true),
        (["query", "--no-history"], false),
        (["query", "--no-history", "--history"], true),
        (["query", "--history", "--no-history"], false),
    ])
    func invertibleFlagTakesTheLastSpelling(arguments: [String], expected: Bool) throws {
        let query: SampleQuery = try parseSample(arguments)
        #expect(query.history == expected)
    }

    @Test func optionGroupOptionsParseInsideTheCommand() throws {
        let query: SampleQuery = try parseSample(["query", "ann", "--db", "other.sqlite"])
        #expect(query.global.db == "other.sqlite")
    }

    @Test func commandsParseOnTheirOwn() throws {
        let list = try SampleHistoryList.parse(["--limit", "4"])
        #expect(list.limit == 4)

        #expect(throws: CommandLineError.self) { try SampleHistoryList.parse(["--limt", "4"]) }
    }

    @Test func parsingTwiceGivesIndependentCommands() throws {
        let first: SampleQuery = try parseSample(["query", "--limit", "1"])
        let second: SampleQuery = try parseSample(["query", "--limit", "2"])
        #expect(first.limit == 1)
        #expect(second.limit == 2)
    }

    @Test func copiesOfACommandShareItsParsedValues() throws {
        var query: SampleQuery = try parseSample(["query", "--limit", "1"])
        let copy = query
        query.limit = 8
        #expect(copy.limit == 8)
    }
}

/// Flags with enable/disable names, declared here because the sample tree has none.
struct EnableDisableSample: ParsableCommand {
    @Flag(inversion: .prefixedEnableDisable, help: "Use colour.") var color = false
    @Option(name: [.customShort("n"), .customLong("max-count")]) var maximum: Int?
}

@Suite struct OtherDeclarationTests {
    @Test func enableDisableInversion() throws {
        #expect(try EnableDisableSample.parse([]).color == false)
        #expect(try EnableDisableSample.parse(["--enable-color"]).color == true)
        #expect(
            try EnableDisableSample.parse(["--enable-color", "--disable-color"]).color == false)
    }

    @Test func customNames() throws {
        #expect(try EnableDisableSample.parse(["-n", "3"]).maximum == 3)
        #expect(try EnableDisableSample.parse(["--max-count=4"]).maximum == 4)
        #expect(try EnableDisableSample.parse([]).maximum == nil)
    }

    @Test func defaultCommandNameIsTheTypeNameInKebabCase() {
        #expect(EnableDisableSample.commandName == "enable-disable-sample")
        #expect(SampleHistoryDelete.commandName == "delete")
    }
}
