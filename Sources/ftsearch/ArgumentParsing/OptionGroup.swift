/// A group of options declared once and shared by several commands, such as `--db <path>`.
///
/// ```swift
/// struct GlobalOptions: ParsableArguments {
///     @Option(help: ArgumentHelp("The index database.", valueName: "path"))
///     var db = "ftsearch.sqlite"
/// }
///
/// struct Query: ParsableCommand {
///     @OptionGroup var global: GlobalOptions
///     // ...
/// }
/// ```
///
/// The group's options parse, show in help and validate as if declared in the command itself,
/// at the place of the `@OptionGroup` property.
@propertyWrapper
public struct OptionGroup<Value: ParsableArguments>: ArgumentDeclaring, NestedArgumentsValidating {
    let storage: ArgumentStorage<Value>

    /// A group with its options at their defaults, filled in by parsing.
    public init() {
        storage = ArgumentStorage(Value())
    }

    /// The group, with its options parsed.
    public var wrappedValue: Value {
        get { storage.requiredValue(property: "@OptionGroup") }
        set { storage.value = newValue }
    }

    func argumentDefinitions(propertyName: String) -> [ArgumentDefinition] {
        storage.requiredValue(property: "@OptionGroup").argumentDefinitions()
    }

    func validateNestedArguments() throws {
        var group = storage.requiredValue(property: "@OptionGroup")
        try group.validateOptionGroups()
        try group.validate()
        storage.value = group
    }
}
