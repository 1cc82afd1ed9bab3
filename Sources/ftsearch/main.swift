// A placeholder root until the real commands land in Commands/: it shows that the argument
// parser builds and answers `--help` and `--version`.
struct FTSearchPlaceholder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ftsearch",
        abstract: "Full-text search over people and animals.",
        discussion: "The search commands are not written yet.")
}

CommandLineTool(root: FTSearchPlaceholder.self, version: "0.1.0").main()
