import Testing

@testable import ftsearch

@Suite struct CommandLineToolTests {
    @Test func versionPrintsOnStandardOutput() {
        let run = runSample(["--version"])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "1.2.3\n")
        #expect(run.standardError == "")
    }

    @Test func withoutAVersionThereIsNoVersionOption() {
        let tool = CommandLineTool(root: SampleTool.self)
        let context = CommandContext.capturing()
        #expect(tool.main(arguments: ["--version"], context: context) == 64)
        #expect(context.standardError.capturedText.hasPrefix("Error: Unknown option '--version'\n"))
        #expect(!tool.helpText().contains("--version"))
    }

    @Test func errorHookChoosesMessageAndExitCode() {
        let run = runSample(["import", "missing.csv", "--format", "csv"])
        // An invalid format is a usage error before anything runs.
        #expect(run.exitCode == 64)

        let missing = runSample(["import", "missing.csv", "--format", "json"])
        #expect(missing.exitCode == 66)
        #expect(missing.standardError == "Error: No such file: missing.csv\n")
        #expect(missing.standardOutput == "")
    }

    @Test func errorsThatProvideTheirExitCode() {
        let run = runSample(["import", "bad.csv", "--format", "json"])
        #expect(run.exitCode == 65)
        #expect(run.standardError == "Error: line 3: unterminated string\n")
    }

    @Test func otherErrorsAreInternalErrors() {
        let run = runSample(["import", "corrupt.csv", "--format", "json"])
        #expect(run.exitCode == 70)
        #expect(run.standardError == "Error: corrupt\n")
    }

    @Test func thrownExitCodeEndsSilently() {
        let run = runSample(["import", "quiet.csv", "--format", "json"])
        #expect(run.exitCode == 3)
        #expect(run.standardError == "")
        #expect(run.standardOutput == "")
    }

    @Test func validationErrorFromRunIsAUsageError() {
        let run = runSample(["import", "usage.csv", "--format", "json"])
        #expect(run.exitCode == 64)
        #expect(
            run.standardError
                == """
                Error: cannot import from a usage file
                Usage: sample import <file> --format <format>
                  See 'sample import --help' for more information.

                """)
    }

    @Test func successfulRun() {
        let run = runSample(["import", "people.csv", "--format", "json"])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "imported people.csv as json\n")
    }

    @Test func failedStandardOutputIsAnInputOutputError() {
        let context = CommandContext(
            standardOutput: OutputWriter(fileDescriptor: -1, buffering: .full),
            standardError: .capturing(), standardInput: .lines([]), environment: [:],
            isStandardOutputTerminal: false, isStandardErrorTerminal: false,
            isStandardInputTerminal: false)
        #expect(sampleTool.main(arguments: ["history"], context: context) == 74)
        #expect(
            context.standardError.capturedText
                == "Error: Could not write to standard output (errno 9)\n")
    }

    @Test func currentContextSeesTheProcessEnvironment() {
        let context = CommandContext.current()
        #expect(context.environment["PATH"] != nil)
    }
}

/// A command that reports what its context holds.
struct ContextSample: ParsableCommand {
    func run(in context: CommandContext) throws {
        var output = context.standardOutput
        print("home", context.environment["HOME"] ?? "-", to: &output)
        print("terminal", context.isStandardOutputTerminal, to: &output)
        context.standardError.write("line: \(context.readLine() ?? "-")\n")
        context.standardError.write("line: \(context.readLine() ?? "-")\n")
    }
}

/// A command that ends early with a message, as commands can.
struct CleanExitSample: ParsableCommand {
    func run(in context: CommandContext) throws {
        throw CleanExit.message("nothing to do")
    }
}

@Suite struct CommandContextTests {
    @Test func runSeesTheGivenEnvironmentInputAndTerminalState() {
        let context = CommandContext.capturing(input: ["first"], environment: ["HOME": "/home/ann"])
        let code = CommandLineTool(root: ContextSample.self).main(arguments: [], context: context)
        #expect(code == 0)
        #expect(context.standardOutput.capturedText == "home /home/ann\nterminal false\n")
        #expect(context.standardError.capturedText == "line: first\nline: -\n")
    }

    @Test func cleanExitMessageGoesToStandardOutput() {
        let context = CommandContext.capturing()
        #expect(
            CommandLineTool(root: CleanExitSample.self).main(arguments: [], context: context) == 0)
        #expect(context.standardOutput.capturedText == "nothing to do\n")
    }
}
