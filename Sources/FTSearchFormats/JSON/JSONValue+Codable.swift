/// `Codable` for JSON values, so that models holding extra fields encode and decode with any
/// `Encoder` and `Decoder`.
///
/// Numbers decode to their shortest text and encode as integers when they are one, else as
/// doubles; a number no double can hold (`1e400`) encodes as its text. Object members keep
/// their order where the coder keeps it.
extension JSONValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: FieldKey.self) {
            self = .object(
                try container.allKeys.map {
                    JSONMember(
                        key: $0.stringValue, value: try container.decode(JSONValue.self, forKey: $0)
                    )
                })
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd {
                elements.append(try container.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .number(String(value))
        } else if let value = try? container.decode(Double.self) {
            self = .number(String(value))
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the value with the encoder's own types.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var container = encoder.container(keyedBy: FieldKey.self)
            for member in members {
                try container.encode(member.value, forKey: FieldKey(member.key))
            }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements {
                try container.encode(element)
            }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .number(let literal):
            var container = encoder.singleValueContainer()
            if let integer = Int64(literal) {
                try container.encode(integer)
            } else if let double = Double(literal), double.isFinite {
                try container.encode(double)
            } else {
                try container.encode(literal)
            }
        }
    }
}

/// A coding key made from any field name.
package struct FieldKey: CodingKey {
    package let stringValue: String

    package init(_ name: String) { stringValue = name }

    package init?(stringValue: String) { self.stringValue = stringValue }

    package var intValue: Int? { nil }

    package init?(intValue: Int) { nil }
}

extension JSONValue {
    /// The value of a whole JSON text (RFC 8259, strictly: `42`, `"text"`, `["a","b"]`), or
    /// `nil` when `text` is not one.
    ///
    /// ```swift
    /// JSONValue(parsing: "42")     // .number("42")
    /// JSONValue(parsing: "Acme")   // nil: not JSON
    /// ```
    public init?(parsing text: String) {
        guard let value = try? JSONParser.parseDocument(Array(text.utf8)) else { return nil }
        self = value
    }
}
