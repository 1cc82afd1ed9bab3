import ArgumentParser
import FTSearchKit

/// Tab completion of search text from `ftsearch suggest`: the shell scripts that
/// `ftsearch completions` prints call back into ftsearch with the words typed so far, and get
/// the suggestions for the word under the cursor, one per line, quoted for that shell by
/// swift-argument-parser.
///
/// A completion opens the database for reading only: it never writes the history, never starts
/// a schema upgrade, and never prints an error into the user's prompt. A missing, unreadable or
/// not yet upgraded database offers nothing.
///
/// The scripts ask for it as swift-argument-parser's generator writes them, `ftsearch
/// ---completion query -- positional@0 <word index> <cursor offset> <word> ...`, and
/// ``answer(to:environment:)`` answers that before the parser runs: to find the argument, the
/// parser first builds every option of the command, which was most of what a Tab cost.
enum SearchTextCompletion {
    /// How many suggestions one Tab offers.
    static let limit = 20

    /// How the generated scripts name a ``SearchTextCommand``'s search text in a completion
    /// request: its first positional argument.
    static let textArgumentName = "positional@0"

    /// The completion of a search-text argument: what the parser runs for a request that
    /// ``answer(to:environment:)`` leaves to it (one naming the argument by its property,
    /// `-- words`, as older generated scripts do).
    static let kind = CompletionKind.custom { words, _, typed in
        suggestions(for: typed, words: words, environment: CommandContext.processEnvironment())
    }

    /// What `ftsearch` prints for `arguments` when they ask for the completion of a
    /// ``SearchTextCommand``'s search text, exactly as the parser prints the answer of ``kind``
    /// (one suggestion a line, and for zsh the pseudo-completion its script removes); nil for
    /// any other command line, which the parser reads as usual.
    static func answer(to arguments: [String], environment: [String: String]) -> String? {
        guard arguments.first == "---completion",
            let separator = arguments.firstIndex(of: "--")
        else { return nil }
        var command: any ParsableCommand.Type = FTSearch.self
        for name in arguments[1..<separator] {
            guard let next = CommandLineConventions.subcommand(named: name, of: command) else {
                return nil
            }
            command = next
        }
        let request = Array(arguments[(separator + 1)...])
        guard command is any SearchTextCommand.Type, request.count >= 3,
            request[0] == textArgumentName, Int(request[1]) != nil,
            let cursor = Int(request[2])
        else { return nil }
        let words = Array(request[3...])
        // The word under the cursor up to the cursor, as the parser hands it to `kind`.
        guard let typed = words.last.map({ String($0.prefix(cursor)) }) ?? (cursor == 0 ? "" : nil)
        else { return nil }
        var lines = suggestions(for: typed, words: words, environment: environment)
        if CompletionShell(rawValue: environment["SAP_SHELL"] ?? "") == .zsh {
            lines.append(" ")  // the parser's zsh answer ends so, and the zsh script drops it
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// The suggestions for `typed`, the word under the cursor as the shell passes it (quotes and
    /// backslashes included), using the database that `--db` among `words` or the environment
    /// names.
    static func suggestions(for typed: String, words: [String], environment: [String: String])
        -> [String]
    {
        let path = DatabaseLocation.resolve(
            explicitPath: databaseOption(in: words).map(shellUnquoted), environment: environment)
        let prefix = shellUnquoted(typed)
        guard let index = try? SearchIndex(path: path, mode: .readOnly),
            let suggestions = try? index.suggestions(
                forPrefix: prefix, options: SuggestionOptions(limit: limit))
        else { return [] }
        // A shell keeps only the candidates that start with the word typed: an index word
        // whose spelling does not (`Müller` for `mu`) is offered folded, as the index holds it.
        return suggestions.map { suggestion in
            guard suggestion.source == .index, !suggestion.text.hasPrefix(prefix),
                let folded = try? index.foldedWords(in: suggestion.text)
            else { return suggestion.text }
            return folded.joined(separator: " ")
        }
    }

    /// The value of the last `--db PATH` or `--db=PATH` among `words`.
    static func databaseOption(in words: [String]) -> String? {
        var value: String?
        for (position, word) in words.enumerated() {
            if word == "--db", position + 1 < words.count {
                value = words[position + 1]
            } else if word.hasPrefix("--db=") {
                value = String(word.dropFirst("--db=".count))
            }
        }
        return value
    }

    /// `word` as the shell would read it: quotes removed, backslash escapes resolved. An
    /// unfinished quote (the user is still typing inside it) is read up to the cursor.
    static func shellUnquoted(_ word: String) -> String {
        var result = ""
        var quote: Character?
        var escaped = false
        for character in word {
            if escaped {
                result.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    result.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// A command whose first positional argument is search text, declared with
/// `completion: SearchTextCompletion.kind`: `query`, `suggest` and `interactive`. Completion
/// requests name that argument ``SearchTextCompletion/textArgumentName``.
protocol SearchTextCommand: ParsableCommand {}
