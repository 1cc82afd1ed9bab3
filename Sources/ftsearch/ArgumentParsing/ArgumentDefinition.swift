/// Everything the parser and the help generator know about one declared option, flag or
/// positional argument.
///
/// Definitions are made from a command instance's property wrappers (found through `Mirror`), and
/// their closures write into those wrappers' shared storage, so parsing fills the very instance
/// that is later validated and run.
struct ArgumentDefinition {
    enum Kind {
        case option
        case flag
        case positional
    }

    var kind: Kind
    /// The names an option or flag answers to; empty for a positional argument.
    var names: [Name] = []
    /// For a flag with an inversion, the names that turn it off (`--no-history`).
    var inversionNames: [Name] = []
    /// The placeholder in `--limit <limit>` and `<text>`.
    var valueName: String
    var help: ArgumentHelp
    /// The text after `default:` in help, if any.
    var defaultValueDescription: String?
    /// Every accepted value (enumerations), for help and error messages.
    var allValues: [String] = []
    /// Whether the user may leave it out (it has a default, is optional, or repeats).
    var isOptional: Bool
    /// Whether it takes any number of values (`[String]`).
    var isRepeating: Bool = false
    /// Reads one value from its text into the storage; false when the text is not valid.
    var update: (String) -> Bool = { _ in false }
    /// Sets a flag: `false` for one of the inversion names.
    var setFlag: (Bool) -> Void = { _ in }
    /// Whether the storage now has a value (given or defaulted).
    var hasValue: () -> Bool = { true }

    var takesValue: Bool { kind != .flag }

    /// How usage lines show it: `[--limit <limit>]`, `<file>`, `[<values> ...]`.
    var usageSynopsis: String {
        var synopsis: String
        switch kind {
        case .positional:
            synopsis = "<\(valueName)>"
        case .option:
            synopsis = "\(names.preferred?.synopsis ?? "") <\(valueName)>"
        case .flag:
            synopsis = names.preferred?.synopsis ?? ""
            if let inverted = inversionNames.preferred {
                synopsis += "] [" + inverted.synopsis
            }
        }
        if isRepeating { synopsis += " ..." }
        if isOptional || kind == .flag { synopsis = "[\(synopsis)]" }
        return synopsis
    }

    /// How help rows label it: `-l, --limit <limit>`, `--history/--no-history`, `<text>`.
    var helpLabel: String {
        switch kind {
        case .positional:
            return "<\(valueName)>"
        case .option:
            let spelled = names.orderedForHelp.map(\.synopsis).joined(separator: ", ")
            return "\(spelled) <\(valueName)>"
        case .flag:
            var spelled = names.orderedForHelp.map(\.synopsis).joined(separator: ", ")
            if !inversionNames.isEmpty {
                spelled +=
                    "/" + inversionNames.orderedForHelp.map(\.synopsis).joined(separator: ", ")
            }
            return spelled
        }
    }

    /// How error messages name it: `--limit <limit>` (as typed) or `<file>`.
    func errorLabel(typed name: Name?) -> String {
        switch kind {
        case .positional: "<\(valueName)>"
        case .flag: (name ?? names.preferred)?.synopsis ?? ""
        case .option: "\((name ?? names.preferred)?.synopsis ?? "") <\(valueName)>"
        }
    }

    /// The description column of its help row: abstract, then `(values: ...; default: ...)`.
    var helpDescription: String {
        var notes: [String] = []
        if !allValues.isEmpty {
            notes.append("values: " + allValues.joined(separator: ", "))
        }
        if let defaultValueDescription, !defaultValueDescription.isEmpty {
            notes.append("default: " + defaultValueDescription)
        }
        let note = notes.isEmpty ? "" : "(" + notes.joined(separator: "; ") + ")"
        return [help.abstract, note].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// A property wrapper the parser can find with `Mirror` and turn into definitions.
protocol ArgumentDeclaring {
    /// The definitions for the property called `propertyName` (without its leading `_`).
    func argumentDefinitions(propertyName: String) -> [ArgumentDefinition]
}

/// A property wrapper that holds a nested group of arguments to validate.
protocol NestedArgumentsValidating {
    func validateNestedArguments() throws
}

extension ParsableArguments {
    /// The definitions of every wrapped property of this instance, in declaration order, with
    /// option groups expanded in place.
    func argumentDefinitions() -> [ArgumentDefinition] {
        collectArgumentDefinitions(of: self)
    }

    /// Validates the option groups inside this instance, innermost first.
    func validateOptionGroups() throws {
        for child in Mirror(reflecting: self).children {
            if let group = child.value as? any NestedArgumentsValidating {
                try group.validateNestedArguments()
            }
        }
    }
}

/// The definitions of every wrapped property of `value`, found with `Mirror`.
func collectArgumentDefinitions(of value: Any) -> [ArgumentDefinition] {
    var definitions: [ArgumentDefinition] = []
    for child in Mirror(reflecting: value).children {
        guard let label = child.label, let declaring = child.value as? any ArgumentDeclaring else {
            continue
        }
        let propertyName = label.hasPrefix("_") ? String(label.dropFirst()) : label
        definitions += declaring.argumentDefinitions(propertyName: propertyName)
    }
    return definitions
}

extension ArgumentDefinition {
    /// A definition that reads values into `storage`; `apply` parses one value and stores it
    /// (replacing, or appending for repeating definitions).
    init<Value>(
        kind: Kind, names: [Name], propertyName: String, help: ArgumentHelp?,
        storage: ArgumentStorage<Value>, defaultValueDescription: String?, allValues: [String],
        isOptional: Bool, isRepeating: Bool,
        apply: @escaping (String, ArgumentStorage<Value>) -> Bool
    ) {
        let help = help ?? ArgumentHelp()
        self.init(
            kind: kind, names: names,
            valueName: help.valueName ?? propertyName.convertedToKebabCase, help: help,
            defaultValueDescription: defaultValueDescription, allValues: allValues,
            isOptional: isOptional, isRepeating: isRepeating)
        self.update = { text in
            guard apply(text, storage) else { return false }
            storage.isSetFromCommandLine = true
            return true
        }
        self.hasValue = { storage.value != nil }
    }

    /// One value of type `T`, last one wins.
    static func single<T: ExpressibleByArgument>(
        kind: Kind, names: [Name], propertyName: String, help: ArgumentHelp?,
        storage: ArgumentStorage<T>, initial: T?
    ) -> ArgumentDefinition {
        ArgumentDefinition(
            kind: kind, names: names, propertyName: propertyName, help: help, storage: storage,
            defaultValueDescription: initial?.defaultValueDescription,
            allValues: T.allValueStrings, isOptional: initial != nil, isRepeating: false
        ) { text, storage in
            guard let value = T(argument: text) else { return false }
            storage.value = value
            return true
        }
    }

    /// One value of type `T` or nothing, last one wins.
    static func optional<T: ExpressibleByArgument>(
        kind: Kind, names: [Name], propertyName: String, help: ArgumentHelp?,
        storage: ArgumentStorage<T?>, initial: T?
    ) -> ArgumentDefinition {
        ArgumentDefinition(
            kind: kind, names: names, propertyName: propertyName, help: help, storage: storage,
            defaultValueDescription: initial?.defaultValueDescription,
            allValues: T.allValueStrings, isOptional: true, isRepeating: false
        ) { text, storage in
            guard let value = T(argument: text) else { return false }
            storage.value = .some(value)
            return true
        }
    }

    /// Any number of values of type `T`, collected in order; given values replace the default.
    static func repeating<T: ExpressibleByArgument>(
        kind: Kind, names: [Name], propertyName: String, help: ArgumentHelp?,
        storage: ArgumentStorage<[T]>, initial: [T]
    ) -> ArgumentDefinition {
        let defaultDescription =
            initial.isEmpty ? nil : initial.map(\.defaultValueDescription).joined(separator: ", ")
        return ArgumentDefinition(
            kind: kind, names: names, propertyName: propertyName, help: help, storage: storage,
            defaultValueDescription: defaultDescription,
            allValues: T.allValueStrings, isOptional: true, isRepeating: true
        ) { text, storage in
            guard let value = T(argument: text) else { return false }
            if !storage.isSetFromCommandLine { storage.value = [] }
            storage.value!.append(value)
            return true
        }
    }
}
