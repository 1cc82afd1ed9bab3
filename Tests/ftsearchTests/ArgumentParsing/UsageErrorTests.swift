import Testing

@testable import ftsearch

/// What follows every usage error of `sample query`.
private let queryUsage = """
    Usage: sample query [--db <path>] [<text>] [--limit <limit>] [--kind <kind>]
                        [--format <format>] [--field <fields> ...] [--count]
                        [--history] [--no-history]
      See 'sample query --help' for more information.

    """

private let importUsage = """
    Usage: sample import <file> --format <format>
      See 'sample import --help' for more information.

    """

@Suite struct UsageErrorTests {
    /// Runs the sample tool, expects exit code 64 and nothing on standard output, and returns
    /// standard error.
    private func usageError(_ arguments: [String]) -> String {
        let run = runSample(arguments)
        #expect(run.exitCode == 64)
        #expect(run.standardOutput == "")
        return run.standardError
    }

    @Test func unknownOptionSuggestsTheClosestName() {
        #expect(
            usageError(["query", "--limt", "3"])
                == "Error: Unknown option '--limt'. Did you mean '--limit'?\n" + queryUsage)
        #expect(
            usageError(["query", "--histroy"])
                == "Error: Unknown option '--histroy'. Did you mean '--history'?\n" + queryUsage)
    }

    @Test func unknownOptionWithoutACloseName() {
        #expect(
            usageError(["query", "--verbose"]) == "Error: Unknown option '--verbose'\n" + queryUsage
        )
        #expect(usageError(["query", "-x"]) == "Error: Unknown option '-x'\n" + queryUsage)
        #expect(usageError(["query", "-cx"]) == "Error: Unknown option '-x'\n" + queryUsage)
    }

    @Test func missingValue() {
        #expect(
            usageError(["query", "--limit"])
                == """
                Error: Missing value for '--limit <limit>'
                Help:  --limit <limit>  How many results to show; 0 for all.

                """ + queryUsage)
        // An option is not a value: the short name as typed is reported.
        #expect(
            usageError(["query", "-l", "--count"])
                == """
                Error: Missing value for '-l <limit>'
                Help:  -l <limit>  How many results to show; 0 for all.

                """ + queryUsage)
    }

    @Test func invalidValue() {
        #expect(
            usageError(["query", "--limit", "abc"])
                == """
                Error: The value 'abc' is invalid for '--limit <limit>'
                Help:  --limit <limit>  How many results to show; 0 for all.

                """ + queryUsage)
    }

    @Test func invalidEnumerationValueListsTheValidOnes() {
        #expect(
            usageError(["query", "--kind", "cats"])
                == """
                Error: The value 'cats' is invalid for '--kind <kind>'. \
                Please provide one of 'people', 'animals' or 'all'.
                Help:  --kind <kind>  Which records to search.

                """ + queryUsage)
    }

    @Test func invalidPositionalValue() {
        #expect(
            usageError(["history", "delete", "3", "x"])
                == """
                Error: The value 'x' is invalid for '<ids>'
                Help:  <ids>  The ids of the entries to delete.
                Usage: sample history delete [<ids> ...]
                  See 'sample history delete --help' for more information.

                """)
    }

    @Test func missingPositionalArgument() {
        #expect(
            usageError(["import"])
                == """
                Error: Missing expected argument '<file>'
                Help:  <file>  The file to import.

                """ + importUsage)
    }

    @Test func missingRequiredOption() {
        #expect(
            usageError(["import", "people.csv"])
                == """
                Error: Missing expected argument '--format <format>'
                Help:  --format <format>  The format of the file.

                """ + importUsage)
    }

    @Test func unexpectedArguments() {
        #expect(
            usageError(["query", "ann", "bob"]) == "Error: Unexpected argument 'bob'\n" + queryUsage
        )
        #expect(
            usageError(["query", "ann", "bob", "cat"])
                == "Error: 2 unexpected arguments: 'bob', 'cat'\n" + queryUsage)
    }

    @Test func flagWithAValue() {
        #expect(
            usageError(["query", "--count=yes"])
                == "Error: The option '--count' does not take any value, but 'yes' was specified.\n"
                + queryUsage)
    }

    @Test func unknownSubcommandSuggestsTheClosestName() {
        #expect(
            usageError(["qurey", "ann"])
                == """
                Error: Unknown subcommand 'qurey'. Did you mean 'query'?
                Usage: sample <subcommand>
                  See 'sample --help' for more information.

                """)
        #expect(
            usageError(["history", "delte", "3"])
                == """
                Error: Unknown subcommand 'delte'. Did you mean 'delete'?
                Usage: sample history <subcommand>
                  See 'sample history --help' for more information.

                """)
    }

    @Test func unknownSubcommandWithoutACloseName() {
        #expect(
            usageError(["zzzzzz"]).hasPrefix(
                "Error: Unknown subcommand 'zzzzzz'\nUsage: sample <subcommand>\n"))
    }

    @Test func validationErrorIsAUsageError() {
        #expect(
            usageError(["query", "--limit", "-5"]) == "Error: --limit must be at least 0\n"
                + queryUsage)
        #expect(
            usageError(["history", "delete"])
                == """
                Error: Give at least one id to delete.
                Usage: sample history delete [<ids> ...]
                  See 'sample history delete --help' for more information.

                """)
    }

    @Test func optionGroupsAreValidatedToo() {
        #expect(
            usageError(["query", "--db", ""]) == "Error: --db must not be empty\n" + queryUsage)
    }

    @Test func versionBelongsToTheRootOnly() {
        #expect(
            usageError(["query", "--version"]).hasPrefix("Error: Unknown option '--version'\n"))
    }

    @Test func versionIsSuggestedAtTheRoot() {
        #expect(
            usageError(["--verison"])
                == """
                Error: Unknown option '--verison'. Did you mean '--version'?
                Usage: sample <subcommand>
                  See 'sample --help' for more information.

                """)
    }

    @Test func parseReportsUsageErrorsAsCommandLineErrors() {
        let error = #expect(throws: CommandLineError.self) {
            try sampleTool.parse(["query", "--limt", "3"])
        }
        #expect(error?.message == "Unknown option '--limt'. Did you mean '--limit'?")
    }
}
