/// A positional argument: a value given by its place on the command line, not by a name.
///
/// Positional arguments are filled in declaration order; a repeating one (`[String]`) takes all
/// that are left, so it comes last. Anything after `--` is positional, even `-ann`.
///
/// ```swift
/// @Argument(help: "The text to search for.") var text: String = ""  // optional: has a default
/// @Argument(help: "The file to import.") var file: String           // required
/// @Argument(help: "History entries to delete.") var ids: [Int]      // any number
/// ```
@propertyWrapper
public struct Argument<Value>: ArgumentDeclaring {
    let storage: ArgumentStorage<Value>
    let makeDefinition: (String) -> ArgumentDefinition

    /// The parsed value, or the declared default when the argument was not given.
    public var wrappedValue: Value {
        get { storage.requiredValue(property: "@Argument") }
        set { storage.value = newValue }
    }

    func argumentDefinitions(propertyName: String) -> [ArgumentDefinition] {
        [makeDefinition(propertyName)]
    }
}

extension Argument where Value: ExpressibleByArgument {
    /// An argument with a default value, used when it is not given.
    public init(wrappedValue: Value, help: ArgumentHelp? = nil) {
        self.init(initial: wrappedValue, help: help)
    }

    /// A required argument: leaving it out is a usage error.
    public init(help: ArgumentHelp? = nil) {
        self.init(initial: nil, help: help)
    }

    private init(initial: Value?, help: ArgumentHelp?) {
        let storage = ArgumentStorage(initial)
        self.storage = storage
        self.makeDefinition = { propertyName in
            .single(
                kind: .positional, names: [], propertyName: propertyName, help: help,
                storage: storage, initial: initial)
        }
    }
}

extension Argument {
    /// An optional argument: nil unless given.
    public init<T: ExpressibleByArgument>(wrappedValue: T? = nil, help: ArgumentHelp? = nil)
    where Value == T? {
        let storage = ArgumentStorage<T?>(.some(wrappedValue))
        self.storage = storage
        self.makeDefinition = { propertyName in
            .optional(
                kind: .positional, names: [], propertyName: propertyName, help: help,
                storage: storage, initial: wrappedValue)
        }
    }

    /// A repeating argument: takes every positional value left, possibly none.
    public init<T: ExpressibleByArgument>(wrappedValue: [T] = [], help: ArgumentHelp? = nil)
    where Value == [T] {
        let storage = ArgumentStorage<[T]>(wrappedValue)
        self.storage = storage
        self.makeDefinition = { propertyName in
            .repeating(
                kind: .positional, names: [], propertyName: propertyName, help: help,
                storage: storage, initial: wrappedValue)
        }
    }
}
