/// One spelling of an option or flag on the command line: `--limit` or `-l`.
enum Name: Hashable, Sendable {
    case long(String)
    case short(Character)

    /// The name as the user types it.
    var synopsis: String {
        switch self {
        case .long(let name): "--" + name
        case .short(let character): "-" + String(character)
        }
    }

    var isShort: Bool {
        if case .short = self { return true }
        return false
    }
}

extension [Name] {
    /// The name shown in usage lines: the first long name, or the first name when all are short.
    var preferred: Name? {
        first { !$0.isShort } ?? first
    }

    /// Short names first, then long ones, as help rows show them: `-l, --limit`.
    var orderedForHelp: [Name] {
        filter(\.isShort) + filter { !$0.isShort }
    }
}

/// The names an option or flag answers to, derived from its property name unless spelled out.
///
/// ```swift
/// @Option(name: .shortAndLong) var limit = 20          // -l, --limit
/// @Option(name: .customLong("db")) var database: String?  // --db
/// @Flag(name: [.customShort("y"), .long]) var yes = false // -y, --yes
/// ```
public struct NameSpecification: ExpressibleByArrayLiteral, Sendable {
    /// One part of a name specification.
    public struct Element: Hashable, Sendable {
        enum Representation: Hashable, Sendable {
            case long
            case customLong(String)
            case short
            case customShort(Character)
        }

        let representation: Representation

        /// The property name in kebab case with two dashes: `noHistory` → `--no-history`.
        public static var long: Element { Element(representation: .long) }
        /// The first letter of the property name with one dash: `limit` → `-l`.
        public static var short: Element { Element(representation: .short) }
        /// A long name spelled out, without its dashes.
        public static func customLong(_ name: String) -> Element {
            Element(representation: .customLong(name))
        }
        /// A short name spelled out, without its dash.
        public static func customShort(_ character: Character) -> Element {
            Element(representation: .customShort(character))
        }
    }

    var elements: [Element]

    /// The union of the given names.
    public init(arrayLiteral elements: Element...) {
        self.elements = elements
    }

    init(_ elements: [Element]) {
        self.elements = elements
    }

    /// `--property-name`, the default.
    public static var long: NameSpecification { [.long] }
    /// `-p` only.
    public static var short: NameSpecification { [.short] }
    /// Both `-p` and `--property-name`.
    public static var shortAndLong: NameSpecification { [.long, .short] }
    /// A long name spelled out, without its dashes.
    public static func customLong(_ name: String) -> NameSpecification { [.customLong(name)] }
    /// A short name spelled out, without its dash.
    public static func customShort(_ character: Character) -> NameSpecification {
        [.customShort(character)]
    }

    /// The concrete names for a property called `propertyName`, without duplicates.
    func makeNames(propertyName: String) -> [Name] {
        var names: [Name] = []
        for element in elements {
            let name: Name
            switch element.representation {
            case .long: name = .long(propertyName.convertedToKebabCase)
            case .customLong(let long): name = .long(long)
            case .short:
                guard let first = propertyName.first else { continue }
                name = .short(first)
            case .customShort(let character): name = .short(character)
            }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}
