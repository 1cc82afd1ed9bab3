/// How a Boolean flag can also be turned off by name.
public enum FlagInversion: Sendable {
    /// `--history` and `--no-history`.
    case prefixedNo
    /// `--enable-history` and `--disable-history`.
    case prefixedEnableDisable
}

/// A named switch without a value: `--count`, `-c`.
///
/// ```swift
/// @Flag(help: "Print only the number of matches.") var count = false
/// @Flag(inversion: .prefixedNo, help: "Record the search in history.") var history = true
/// ```
///
/// Short flags combine: `-cv` is `-c -v`.
@propertyWrapper
public struct Flag<Value>: ArgumentDeclaring {
    let storage: ArgumentStorage<Value>
    let makeDefinition: (String) -> ArgumentDefinition

    /// The parsed value, or the declared default when the flag was not given.
    public var wrappedValue: Value {
        get { storage.requiredValue(property: "@Flag") }
        set { storage.value = newValue }
    }

    func argumentDefinitions(propertyName: String) -> [ArgumentDefinition] {
        [makeDefinition(propertyName)]
    }
}

extension Flag where Value == Bool {
    /// A flag that is `wrappedValue` (normally false) unless given, and true when given.
    public init(
        wrappedValue: Bool = false, name: NameSpecification = .long, help: ArgumentHelp? = nil
    ) {
        let storage = ArgumentStorage(wrappedValue)
        self.storage = storage
        self.makeDefinition = { propertyName in
            var definition = ArgumentDefinition(
                kind: .flag, names: name.makeNames(propertyName: propertyName),
                valueName: propertyName.convertedToKebabCase, help: help ?? ArgumentHelp(),
                isOptional: true)
            definition.setFlag = { storage.value = $0 }
            return definition
        }
    }

    /// A flag with a name to turn it on and one to turn it off; the last one given wins.
    ///
    /// Help shows it as `--history/--no-history` with `(default: --history)`.
    public init(
        wrappedValue: Bool, name: NameSpecification = .long, inversion: FlagInversion,
        help: ArgumentHelp? = nil
    ) {
        let storage = ArgumentStorage(wrappedValue)
        self.storage = storage
        self.makeDefinition = { propertyName in
            let names = name.makeNames(propertyName: propertyName)
            let longNames = names.compactMap { name -> String? in
                if case .long(let long) = name { return long }
                return nil
            }
            let (positive, negative): ([Name], [Name]) =
                switch inversion {
                case .prefixedNo:
                    (names, longNames.map { .long("no-" + $0) })
                case .prefixedEnableDisable:
                    (
                        names.filter(\.isShort) + longNames.map { .long("enable-" + $0) },
                        longNames.map { .long("disable-" + $0) }
                    )
                }
            var definition = ArgumentDefinition(
                kind: .flag, names: positive, inversionNames: negative,
                valueName: propertyName.convertedToKebabCase, help: help ?? ArgumentHelp(),
                defaultValueDescription: (wrappedValue ? positive : negative).preferred?.synopsis,
                isOptional: true)
            definition.setFlag = { storage.value = $0 }
            return definition
        }
    }
}
