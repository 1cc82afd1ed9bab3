import ArgumentParser
import FTSearchKit

/// The fields `ftsearch add` and `ftsearch update` set: the searchable fields of the kind, and
/// extra fields as `--set KEY=VALUE`.
struct RecordFieldOptions: ParsableArguments {
    @Option(help: "The first name (people).")
    var firstName: String?

    @Option(help: "The last name (people).")
    var lastName: String?

    @Option(help: "The company (people).")
    var company: String?

    @Option(help: "The name (animals).")
    var name: String?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Set an extra field; VALUE is read as JSON when it is JSON (42, true, [\"a\"], \"42\"), else as text. Repeatable.",
            valueName: "key=value"))
    var assignments: [String] = []

    init() {}

    /// Whether no field is given at all.
    var isEmpty: Bool { searchableValues.isEmpty && assignments.isEmpty }

    /// The searchable fields given, by field name.
    var searchableValues: [(field: String, value: String)] {
        [("first_name", firstName), ("last_name", lastName), ("company", company), ("name", name)]
            .compactMap { field, value in value.map { (field, $0) } }
    }

    /// Refuses fields that records of `kind` do not have, and malformed `--set` values.
    func validate(for kind: Kind) throws {
        for (field, _) in searchableValues where !kind.searchableFields.contains(field) {
            let options = kind.searchableFields.map { "--" + $0.replacingUnderscores }
            throw ValidationError(
                "--\(field.replacingUnderscores) is not a field of \(kind.rawValue); "
                    + "\(kind.rawValue) have \(options.joined(separator: ", "))")
        }
        _ = try extraFields
    }

    /// The `--set` fields, in order.
    var extraFields: [JSONMember] {
        get throws {
            try assignments.map { assignment in
                guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex
                else {
                    throw ValidationError("--set takes KEY=VALUE, not '\(assignment)'")
                }
                let value = String(assignment[assignment.index(after: equals)...])
                return JSONMember(
                    key: String(assignment[..<equals]),
                    value: JSONValue(parsing: value) ?? .string(value))
            }
        }
    }

    /// A new model with the given fields (the others empty).
    func newModel<Model: RecordModel>(_ type: Model.Type) throws -> Model {
        try applied(to: Model(emptyOf: Model.kind))
    }

    /// `model` with the given fields set and the extra fields named in `unset` removed.
    func applied<Model: RecordModel>(to model: Model, unsetting unset: [String] = []) throws
        -> Model
    {
        var model = model
        for (field, value) in searchableValues { model[field: field] = value }
        for member in try extraFields { model[extra: member.key] = member.value }
        for key in unset { model[extra: key] = nil }
        return model
    }
}

extension String {
    /// `first_name` → `first-name`, as options spell field names.
    fileprivate var replacingUnderscores: String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
