/// What the JSON readers need of a parsed value: that it is an object, whose members are the
/// record's fields.
extension JSONValue {
    /// The members of an object value.
    ///
    /// - Parameters:
    ///   - line: The line where the value starts (for the error).
    ///   - column: The column where the value starts (for the error).
    /// - Throws: A recoverable ``RecordSyntaxError`` `expected an object, found a number` for any
    ///   value that is not an object.
    package func recordFields(line: Int, column: Int) throws(RecordSyntaxError) -> [JSONMember] {
        guard case .object(let members) = self else {
            throw RecordSyntaxError(
                line: line, column: column, reason: "expected an object, found \(kindDescription)",
                isRecoverable: true)
        }
        return members
    }

    /// The kind of the value as an error message names it: `a number`, `an array`, `null`.
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
