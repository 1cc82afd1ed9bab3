import FTSearchKit

/// Builds one compact JSON object at a time, keys in the order they are added.
struct JSONWriter {
    private(set) var text = "{"
    private var isEmpty = true

    mutating func add(_ key: String, _ value: JSONValue) {
        addKey(key)
        value.write(to: &text)
    }

    mutating func add(_ key: String, string value: String?) {
        add(key, value.map(JSONValue.string) ?? .null)
    }

    mutating func add(_ key: String, integer value: Int) {
        add(key, .number(String(value)))
    }

    /// Adds `key` with raw JSON text (another object built by a `JSONWriter`, or an array).
    mutating func add(_ key: String, json: String) {
        addKey(key)
        text += json
    }

    private mutating func addKey(_ key: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        JSONValue.writeQuoted(key, to: &text)
        text += ":"
    }

    /// The finished object.
    var object: String { text + "}" }

    /// `[a,b,c]` of JSON texts.
    static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }
}
