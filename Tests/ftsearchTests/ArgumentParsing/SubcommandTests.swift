import Testing

@testable import ftsearch

@Suite struct SubcommandTests {
    @Test func namedSubcommandRuns() {
        let run = runSample(["query", "ann", "--kind", "people"])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput.hasPrefix("query text=ann limit=20 kind=people format=- "))
        #expect(run.standardError == "")
    }

    @Test func defaultSubcommandRunsWhenNoneIsNamed() {
        let run = runSample(["history"])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "list limit=10\n")
    }

    @Test func defaultSubcommandGetsTheOptions() {
        #expect(runSample(["history", "--limit", "3"]).standardOutput == "list limit=3\n")
        #expect(runSample(["history", "list", "--limit", "3"]).standardOutput == "list limit=3\n")
    }

    @Test func nestedSubcommandsRun() {
        let run = runSample(["history", "delete", "3", "4"])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "delete 3 4\n")
    }

    @Test func parsingReturnsTheNamedCommand() throws {
        #expect(try sampleTool.parse(["history", "clear", "--yes"]) is SampleHistoryClear)
        #expect(try sampleTool.parse(["history"]) is SampleHistoryList)
        #expect(try sampleTool.parse(["query"]) is SampleQuery)
    }

    @Test func commandWithSubcommandsAndNoDefaultPrintsItsHelp() {
        let run = runSample([])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == sampleTool.helpText())
        #expect(run.standardError == "")
    }

    @Test func confirmedPromptRuns() {
        let run = runSample(["history", "clear"], input: ["y"])
        #expect(run.exitCode == 0)
        #expect(run.standardError == "Delete the whole history? [y/N] ")
        #expect(run.standardOutput == "cleared\n")
    }

    @Test func declinedPromptExitsSilentlyWithTheThrownCode() {
        let declined = runSample(["history", "clear"], input: ["n"])
        #expect(declined.exitCode == 1)
        #expect(declined.standardOutput == "")
        #expect(declined.standardError == "Delete the whole history? [y/N] ")

        let endOfInput = runSample(["history", "clear"])
        #expect(endOfInput.exitCode == 1)
    }

    @Test func flagSkipsThePrompt() {
        for yes in ["--yes", "-y"] {
            let run = runSample(["history", "clear", yes])
            #expect(run.exitCode == 0)
            #expect(run.standardOutput == "cleared\n")
            #expect(run.standardError == "")
        }
    }
}
