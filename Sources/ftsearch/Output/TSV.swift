/// Tab-separated values without quoting: tab, newline, carriage return and backslash inside a
/// value are written `\t`, `\n`, `\r`, `\\`, so every record is one line and every field one
/// column, whatever the data.
enum TSV {
    /// One line of fields joined by tabs, ending in a newline.
    static func line(_ fields: [String]) -> String {
        fields.map(escaped).joined(separator: "\t") + "\n"
    }

    static func escaped(_ value: String) -> String {
        guard
            value.contains(where: {
                $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\\" || $0 == "\r\n"
            })
        else {
            return value
        }
        var output = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\t": output += "\\t"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\\": output += "\\\\"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
