/// A named option that takes a value: `--limit 20`, `--limit=20`, `-l 20`, `-l20`.
///
/// The property's type decides how the value is read and whether the option is required:
///
/// ```swift
/// @Option(name: .shortAndLong, help: "How many results to show.") var limit = 20  // default
/// @Option(help: "Output format.") var format: OutputFormat?                     // optional
/// @Option(help: "The file to read.") var file: String                           // required
/// @Option(help: "A field to show; repeat for more.") var field: [String] = []   // repeating
/// ```
///
/// Given twice, the last value wins; a repeating option collects every value instead.
@propertyWrapper
public struct Option<Value>: ArgumentDeclaring {
    let storage: ArgumentStorage<Value>
    let makeDefinition: (String) -> ArgumentDefinition

    /// The parsed value, or the declared default when the option was not given.
    public var wrappedValue: Value {
        get { storage.requiredValue(property: "@Option") }
        set { storage.value = newValue }
    }

    func argumentDefinitions(propertyName: String) -> [ArgumentDefinition] {
        [makeDefinition(propertyName)]
    }
}

extension Option where Value: ExpressibleByArgument {
    /// An option with a default value, used when it is not given.
    public init(
        wrappedValue: Value, name: NameSpecification = .long, help: ArgumentHelp? = nil
    ) {
        self.init(initial: wrappedValue, name: name, help: help)
    }

    /// A required option: leaving it out is a usage error.
    public init(name: NameSpecification = .long, help: ArgumentHelp? = nil) {
        self.init(initial: nil, name: name, help: help)
    }

    private init(initial: Value?, name: NameSpecification, help: ArgumentHelp?) {
        let storage = ArgumentStorage(initial)
        self.storage = storage
        self.makeDefinition = { propertyName in
            .single(
                kind: .option, names: name.makeNames(propertyName: propertyName),
                propertyName: propertyName, help: help, storage: storage, initial: initial)
        }
    }
}

extension Option {
    /// An optional option: nil unless given.
    public init<T: ExpressibleByArgument>(
        wrappedValue: T? = nil, name: NameSpecification = .long, help: ArgumentHelp? = nil
    ) where Value == T? {
        let storage = ArgumentStorage<T?>(.some(wrappedValue))
        self.storage = storage
        self.makeDefinition = { propertyName in
            .optional(
                kind: .option, names: name.makeNames(propertyName: propertyName),
                propertyName: propertyName, help: help, storage: storage, initial: wrappedValue)
        }
    }

    /// A repeating option: every `--field x` adds one element; given values replace the default.
    public init<T: ExpressibleByArgument>(
        wrappedValue: [T] = [], name: NameSpecification = .long, help: ArgumentHelp? = nil
    ) where Value == [T] {
        let storage = ArgumentStorage<[T]>(wrappedValue)
        self.storage = storage
        self.makeDefinition = { propertyName in
            .repeating(
                kind: .option, names: name.makeNames(propertyName: propertyName),
                propertyName: propertyName, help: help, storage: storage, initial: wrappedValue)
        }
    }
}
