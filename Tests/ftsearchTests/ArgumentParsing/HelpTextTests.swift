import Testing

@testable import ftsearch

@Suite struct HelpTextTests {
    @Test func rootHelpListsSubcommandsAndVersion() {
        #expect(
            sampleTool.helpText()
                == """
                OVERVIEW: A sample search tool.

                USAGE: sample <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  query                   Search people and animals.
                  import                  Import records from a file.
                  history                 Show or change the search history.

                  See 'sample help <subcommand>' for detailed help.

                """)
    }

    @Test func groupHelpMarksTheDefaultSubcommand() {
        #expect(
            sampleTool.helpText(for: ["history"])
                == """
                OVERVIEW: Show or change the search history.

                USAGE: sample history <subcommand>

                OPTIONS:
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  list (default)          List recent searches.
                  delete                  Delete history entries.
                  clear                   Delete the whole history.

                  See 'sample help history <subcommand>' for detailed help.

                """)
    }

    @Test func leafHelpShowsArgumentsOptionsDefaultsAndValues() {
        #expect(
            sampleTool.helpText(for: ["query"])
                == """
                OVERVIEW: Search people and animals.

                Every word must match; the last one may be a prefix.

                USAGE: sample query [--db <path>] [<text>] [--limit <limit>] [--kind <kind>]
                                    [--format <format>] [--field <fields> ...] [--count]
                                    [--history] [--no-history]

                ARGUMENTS:
                  <text>                  The text to search for.

                OPTIONS:
                  --db <path>             The index database. (default: index.sqlite)
                  -l, --limit <limit>     How many results to show; 0 for all. (default: 20)
                  --kind <kind>           Which records to search. (values: people, animals,
                                          all; default: all)
                  --format <format>       Output format. (values: table, json, tsv)
                  --field <fields>        A field to show; repeat for more.
                  -c, --count             Print only the number of matches.
                  --history/--no-history  Record the search in history. (default: --history)
                  -h, --help              Show help information.


                """)
    }

    @Test func leafHelpWithRequiredArguments() {
        #expect(
            sampleTool.helpText(for: ["import"])
                == """
                OVERVIEW: Import records from a file.

                USAGE: sample import <file> --format <format>

                ARGUMENTS:
                  <file>                  The file to import.

                OPTIONS:
                  --format <format>       The format of the file. (values: table, json, tsv)
                  -h, --help              Show help information.


                """)
    }

    @Test(arguments: [
        ["query", "--help"], ["query", "-h"], ["help", "query"], ["--help", "query"],
        ["query", "ann", "--limit", "3", "--help"],
    ])
    func everyWayToAskForHelpPrintsTheSameText(arguments: [String]) {
        let run = runSample(arguments)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == sampleTool.helpText(for: ["query"]))
        #expect(run.standardError == "")
    }

    @Test(arguments: [
        ["history", "delete", "--help"], ["help", "history", "delete"],
        ["history", "delete", "-h"],
    ])
    func helpForANestedSubcommand(arguments: [String]) {
        let run = runSample(arguments)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == sampleTool.helpText(for: ["history", "delete"]))
        #expect(run.standardOutput.hasPrefix("OVERVIEW: Delete history entries.\n"))
        #expect(run.standardOutput.contains("USAGE: sample history delete [<ids> ...]\n"))
    }

    @Test(arguments: [["--help"], ["-h"], ["help"], []])
    func rootHelp(arguments: [String]) {
        let run = runSample(arguments)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == sampleTool.helpText())
    }

    @Test func helpForAGroupDoesNotFallIntoItsDefaultSubcommand() {
        #expect(
            runSample(["history", "--help"]).standardOutput == sampleTool.helpText(for: ["history"])
        )
        #expect(
            runSample(["help", "history"]).standardOutput == sampleTool.helpText(for: ["history"]))
    }

    @Test func helpAfterDoubleDashIsAnArgument() throws {
        let query: SampleQuery = try parseSample(["query", "--", "--help"])
        #expect(query.text == "--help")
    }

    @Test func helpForAnUnknownSubcommandShowsTheDeepestKnownCommand() {
        #expect(
            runSample(["help", "history", "nope"]).standardOutput
                == sampleTool.helpText(for: ["history"]))
    }

    @Test func noLineIsWiderThanEightyColumns() {
        for path in [[], ["query"], ["import"], ["history"], ["history", "delete"]] {
            for line in sampleTool.helpText(for: path).split(separator: "\n") {
                #expect(line.count <= 80, "\(path): \(line)")
            }
        }
    }
}

/// A command with long names and texts, to test wrapping.
struct WrappingSample: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wrap",
        abstract: "Wraps.",
        discussion: """
            This discussion is long enough that it has to be wrapped at eighty columns, \
            and it keeps its own line breaks.
              An indented line stays indented.
            """)

    @Option(
        help: ArgumentHelp(
            "A long option label pushes its abstract onto the next line.",
            discussion: "Its discussion goes below, indented further."))
    var aVeryLongOptionNameIndeed = "x"
    @Flag(help: .hidden) var secret = false
}

@Suite struct HelpWrappingTests {
    @Test func longLabelsAbstractsAndDiscussionsWrap() {
        let help = HelpGenerator(commandStack: [WrappingSample.self], version: nil).rendered()
        #expect(
            help
                == """
                OVERVIEW: Wraps.

                This discussion is long enough that it has to be wrapped at eighty columns, and
                it keeps its own line breaks.
                  An indented line stays indented.

                USAGE: wrap [--a-very-long-option-name-indeed <a-very-long-option-name-indeed>]

                OPTIONS:
                  --a-very-long-option-name-indeed <a-very-long-option-name-indeed>
                                          A long option label pushes its abstract onto the next
                                          line. (default: x)
                        Its discussion goes below, indented further.
                  -h, --help              Show help information.


                """)
    }

    @Test func hiddenDeclarationsStillParse() throws {
        #expect(try WrappingSample.parse(["--secret"]).secret)
    }
}
