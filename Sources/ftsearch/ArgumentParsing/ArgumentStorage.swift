/// The reference box behind every property wrapper.
///
/// A command is a struct, so the parser cannot write into the instance it found through
/// `Mirror`. Each wrapper instead owns one of these boxes: the parser fills the box, and every copy
/// of the command (they all share the box) then reads the parsed value.
final class ArgumentStorage<Value> {
    /// The current value: the declared default until the parser sets one, nil when there is
    /// neither (a required option or argument not given yet).
    var value: Value?
    /// Whether the value came from the command line rather than the declaration, so a repeating
    /// option's first value replaces its default instead of adding to it.
    var isSetFromCommandLine = false

    init(_ value: Value?) {
        self.value = value
    }

    /// The value, trapping when code reads a required property that was never parsed (a
    /// programmer error: commands are only run after parsing succeeded).
    func requiredValue(property kind: String) -> Value {
        guard let value else {
            preconditionFailure("\(kind) value read before the command line was parsed")
        }
        return value
    }
}
