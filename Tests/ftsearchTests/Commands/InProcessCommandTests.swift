import FTSearchKit
import FTSearchTestSupport
import Foundation
import Testing
@testable import ftsearch

/// Commands run in-process with a captured context, for what a pipe cannot show: terminals.
@Suite struct InProcessCommandTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        let context = CommandContext.capturing(environment: environment)
        #expect(
            CommandRunner.run(["import", FTSearchRunner.fixture("people.json")], in: context) == 0)
        #expect(CommandRunner.run(["query", "ann"], in: context) == 0)
    }

    var environment: [String: String] {
        ["FTSEARCH_DB": directory.file("db.sqlite"), "FTSEARCH_NOW": "2026-01-01T12:00:00Z"]
    }

    private func run(
        _ arguments: [String], input: [String] = [], terminal: Bool, extra: [String: String] = [:]
    )
        -> (code: Int32, output: String, error: String)
    {
        let context = CommandContext.capturing(
            input: input, environment: environment.merging(extra) { $1 },
            isTerminal: terminal)
        let code = CommandRunner.run(arguments, in: context)
        return (code, context.standardOutput.capturedText, context.standardError.capturedText)
    }

    @Test func theFirstSubstringSearchShowsOneProgressLineOnATerminal() {
        let first = run(
            ["query", "nna", "--match", "substring", "--kind", "people"], terminal: true,
            extra: ["NO_COLOR": "1"])
        #expect(first.code == 0)
        #expect(first.output.contains("Anna"))
        #expect(
            first.error.components(separatedBy: "Building the substring index of 12 people (once)…")
                .count == 2, "\(first.error)")
        #expect(first.error.hasSuffix("\r\u{1B}[K"))  // the line is erased afterwards
        let second = run(
            ["query", "nna", "--match", "substring", "--kind", "people"], terminal: true)
        #expect(second.code == 0 && second.error.isEmpty)
        let piped = run(["query", "nna", "--match", "substring", "--kind", "all"], terminal: false)
        #expect(piped.code == 0 && piped.error.isEmpty)  // animals' index built silently
    }

    @Test func clearAsksOnATerminalAndDeletesOnYes() {
        let declined = run(["history", "clear"], input: ["n"], terminal: true)
        #expect(declined.code == 1)
        #expect(declined.error == "Delete 1 history entry? [y/N] Nothing deleted.\n")
        let accepted = run(["history", "clear"], input: ["y"], terminal: true)
        #expect(accepted.code == 0)
        #expect(accepted.error.hasSuffix("Deleted 1 history entry.\n"))
        #expect(run(["history", "--format", "json"], terminal: false).output == "[]\n")
    }

    @Test func tableIsTheDefaultOnATerminalWithMatchesHighlighted() {
        let table = run(["query", "ann mül", "--kind", "people"], terminal: true)
        #expect(
            table.output == """
                ID  FIRST NAME  LAST NAME  COMPANY
                2   \u{1B}[1;31mAnn\u{1B}[0ma        \u{1B}[1;31mMül\u{1B}[0mler     \u{1B}[1;31mMül\u{1B}[0mler-Lüdenscheid GmbH

                """)
        let plain = run(
            ["query", "ann mül", "--kind", "people"], terminal: true, extra: ["NO_COLOR": "1"])
        #expect(
            plain.output
                == "ID  FIRST NAME  LAST NAME  COMPANY\n2   Anna        Müller     Müller-Lüdenscheid GmbH\n"
        )
    }

    @Test func colorOptionOverridesTheTerminalCheck() {
        let forced = run(
            ["query", "ann mül", "--format", "table", "--color", "always"], terminal: false)
        #expect(forced.output.contains("\u{1B}[1;31mAnn\u{1B}[0m"))
        let never = run(["query", "ann mül", "--color", "never"], terminal: true)
        #expect(!never.output.contains("\u{1B}["))
    }

    @Test func pipedOutputDefaultsToTSV() {
        #expect(
            run(["query", "zoë", "--kind", "people"], terminal: false).output.hasPrefix(
                "kind\tid\tscore\t"))
        #expect(run(["history"], terminal: false).output.hasPrefix("id\ttext\t"))
    }

    @Test func importSummaryNamesKindsUpdatesAndSkips() {
        var summary = ImportSummary()
        summary.inserted = [.people: 9, .animals: 1]
        summary.updated = [.people: 3]
        summary.skipped = 2
        #expect(
            ImportCommand.summaryLine(summary, seconds: 1.234)
                == "Imported 12 people (3 updated) and 1 animal, skipped 2, in 1.23 s.")
        #expect(
            ImportCommand.summaryLine(ImportSummary(), seconds: 0) == "Imported nothing, in 0.00 s."
        )
    }

    @Test(arguments: [
        (0, "0"), (999, "999"), (1000, "1,000"), (1_250_000, "1,250,000"), (-12345, "-12,345"),
    ])
    func groupsThousands(value: Int, expected: String) {
        #expect(Grouped(value).description == expected)
    }
}
