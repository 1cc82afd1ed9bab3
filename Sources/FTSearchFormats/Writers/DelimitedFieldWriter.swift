/// Writes fields of CSV or TSV exactly as ``CSVDialect`` and ``TSVDialect`` read them back.
package enum DelimitedFieldWriter {
    case csv
    case tsv

    /// The byte between two fields.
    package var separator: UInt8 {
        switch self {
        case .csv: DelimitedByte.comma
        case .tsv: DelimitedByte.tab
        }
    }

    /// Appends `fields` as one row ending in a line feed.
    package func appendRow(_ fields: [String], to output: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { output.append(separator) }
            append(field, to: &output)
        }
        output.append(DelimitedByte.lineFeed)
    }

    /// CSV: in double quotes, with quotes doubled, when the field holds a comma, a quote or a
    /// line break (RFC 4180). TSV: tab, line feed, carriage return and backslash as `\t`, `\n`,
    /// `\r` and `\\`.
    private func append(_ field: String, to output: inout [UInt8]) {
        let bytes = field.utf8
        switch self {
        case .csv:
            let needsQuotes = bytes.contains {
                $0 == DelimitedByte.comma || $0 == DelimitedByte.quote
                    || $0 == DelimitedByte.lineFeed || $0 == DelimitedByte.carriageReturn
            }
            guard needsQuotes else {
                output.append(contentsOf: bytes)
                return
            }
            output.append(DelimitedByte.quote)
            for byte in bytes {
                if byte == DelimitedByte.quote { output.append(byte) }
                output.append(byte)
            }
            output.append(DelimitedByte.quote)
        case .tsv:
            for byte in bytes {
                switch byte {
                case DelimitedByte.tab: output.append(contentsOf: [DelimitedByte.backslash, 0x74])
                case DelimitedByte.lineFeed:
                    output.append(contentsOf: [DelimitedByte.backslash, 0x6E])
                case DelimitedByte.carriageReturn:
                    output.append(contentsOf: [DelimitedByte.backslash, 0x72])
                case DelimitedByte.backslash:
                    output.append(contentsOf: [DelimitedByte.backslash, DelimitedByte.backslash])
                default: output.append(byte)
                }
            }
        }
    }
}
