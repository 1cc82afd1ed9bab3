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
enum SearchTextCompletion {
    /// How many suggestions one Tab offers.
    static let limit = 20

    /// The completion of a search-text argument.
    static let kind = CompletionKind.custom { words, _, typed in
        suggestions(for: typed, words: words, environment: CommandContext.processEnvironment())
    }

    /// The suggestions for `typed`, the word under the cursor as the shell passes it (quotes and
    /// backslashes included), using the database that `--db` among `words` or the environment
    /// names.
    static func suggestions(for typed: String, words: [String], environment: [String: String])
        -> [String]
    {
        let path = DatabaseLocation.resolve(
            explicitPath: databaseOption(in: words).map(shellUnquoted), environment: environment)
        guard let index = try? SearchIndex(path: path, mode: .readOnly),
            let suggestions = try? index.suggestions(
                forPrefix: shellUnquoted(typed), options: SuggestionOptions(limit: limit))
        else { return [] }
        return suggestions.map(\.text)
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
