public import ArgumentParser
import FTSearchKit

// The values of the options that name library types.

extension Kind: @retroactive ExpressibleByArgument {}
extension MatchMode: @retroactive ExpressibleByArgument {}
extension SuggestionOptions.Order: @retroactive ExpressibleByArgument {}
extension InputFormat: @retroactive ExpressibleByArgument {}

/// The value of `--kind`: `people`, `animals` or `all`.
enum KindArgument: String, CaseIterable, ExpressibleByArgument {
    case people
    case animals
    case all

    /// The kinds the value names.
    var kinds: Set<Kind> { Set(name: rawValue)! }
}

/// The value of `suggest --source`: `history`, `index` or `all` (history first, filled up from
/// the index).
enum SuggestionSourceArgument: String, CaseIterable, ExpressibleByArgument {
    case history
    case index
    case all

    /// The sources the value names.
    var sources: Set<Suggestion.Source> {
        switch self {
        case .history: [.history]
        case .index: [.index]
        case .all: [.history, .index]
        }
    }
}
