@testable import FTSearchFormats
@testable import FTSearchEngine
@testable import FTSearchKit

/// The input formats the readers are fuzzed in.
enum FuzzFormat: String, CaseIterable, CustomStringConvertible, Sendable {
    case csv
    case tsv
    case jsonArray = "json"
    case ndjson

    var description: String { rawValue }

    /// A reader of `bytes` handed out in chunks of `chunkSize`, through a read buffer of
    /// `bufferCapacity` bytes.
    func read(_ bytes: [UInt8], chunkSize: Int, bufferCapacity: Int, limit: Int) -> [ReadEvent] {
        let source = MemoryInput(bytes, chunkSize: chunkSize)
        switch self {
        case .csv:
            var reader = CSVReader(source: source, bufferCapacity: bufferCapacity)
            return readEvents(&reader, limit: limit)
        case .tsv:
            var reader = TSVReader(source: source, bufferCapacity: bufferCapacity)
            return readEvents(&reader, limit: limit)
        case .jsonArray:
            var reader = JSONArrayReader(source: source, bufferCapacity: bufferCapacity)
            return readEvents(&reader, limit: limit)
        case .ndjson:
            var reader = NDJSONReader(source: source, bufferCapacity: bufferCapacity)
            return readEvents(&reader, limit: limit)
        }
    }

    /// The physical lines of `bytes` as this format counts them (CSV: LF, CRLF or a lone CR;
    /// the others: LF), each without its line break.
    func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                lines.append(bytes[start..<index])
                index += 1
                start = index
            } else if byte == 0x0D && self == .csv {
                lines.append(bytes[start..<index])
                index += index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        lines.append(bytes[start..<bytes.count])
        return lines
    }

    /// The 1-based line on which `offset` lies.
    func line(at offset: Int, in bytes: [UInt8]) -> Int {
        lines(of: Array(bytes[0..<offset])).count
    }
}

/// A document written from known records: its bytes, and what a correct reader must return.
struct GeneratedDocument {
    var bytes: [UInt8]
    /// The records, in order, as `readEvents` reports them.
    var expected: [ReadEvent]
    /// For each record, the offset just past its last byte and its line break; past the end of
    /// the input for a last record without a line break (appending to it changes it).
    var recordEnds: [Int]
}

/// Writes random records in each format, the way an obviously-correct writer would: records are
/// chosen first, then serialized, so the expected reading is known without any parser.
struct DocumentGenerator<Generator: RandomNumberGenerator> {
    var random: Generator
    /// How many of the next fields are made very large (over a megabyte).
    var enormousFields = 0

    init(random: Generator) {
        self.random = random
    }

    mutating func document(_ format: FuzzFormat) -> GeneratedDocument {
        switch format {
        case .csv, .tsv: delimited(format)
        case .jsonArray: jsonArray()
        case .ndjson: ndjson()
        }
    }

    // MARK: - Values

    /// A field value: empty, plain words, or hostile text (quotes, separators, line breaks, NUL,
    /// combining marks, emoji, right-to-left text).
    mutating func text() -> String {
        if enormousFields > 0 && random.chance(0.3) {
            enormousFields -= 1
            let unit = random.pick(["x", "é", "😀", "a,b\"c\r\n", "\t\\"])
            return String(repeating: unit, count: (1 << 20) / unit.utf8.count + 1)
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return ""
        case 1, 2: return random.pick(["Ann", "Zoë Ødegaard", "O'Brien", "5'11\"", "Smith & Sons"])
        default: return HostileText.random(using: &random)
        }
    }

    // MARK: - CSV and TSV

    private mutating func delimited(_ format: FuzzFormat) -> GeneratedDocument {
        let fieldCount = Int.random(in: 1...6, using: &random)
        let names = (0..<fieldCount).map { "f\($0)_" + HostileText.random(using: &random) }
        var rows: [[String]] = []
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            var row = (0..<fieldCount).map { _ in text() }
            // A row of one empty field is a blank line, which readers skip.
            if format == .tsv && fieldCount == 1 && row[0].isEmpty { row[0] = "x" }
            rows.append(row)
        }
        let breaks = format == .csv ? ["\n", "\r\n", "\r"] : ["\n", "\r\n"]
        var bytes: [UInt8] = random.chance(0.2) ? [0xEF, 0xBB, 0xBF] : []
        if random.chance(0.1) { bytes += Array(random.pick(breaks).utf8) }
        var expected: [ReadEvent] = []
        var ends: [Int] = []
        for (index, row) in ([names] + rows).enumerated() {
            let isLast = index == rows.count
            if index > 0 {
                let start = bytes.count
                let line = format.line(at: start, in: bytes)
                expected.append(
                    .record(
                        line: line, section: nil,
                        fields: zip(names, row).map {
                            JSONMember(key: $0.0, value: .string($0.1))
                        }))
            }
            let separator = format == .csv ? "," : "\t"
            bytes += Array(
                row.map { format == .csv ? csvField($0, alone: row.count == 1) : tsvField($0) }
                    .joined(separator: separator).utf8)
            if isLast && random.chance(0.3) {
                if index > 0 { ends.append(Int.max) }
                break
            }
            bytes += Array(random.pick(breaks).utf8)
            if index > 0 { ends.append(bytes.count) }
            while random.chance(0.15) { bytes += Array(random.pick(breaks).utf8) }
        }
        return GeneratedDocument(bytes: bytes, expected: expected, recordEnds: ends)
    }

    private mutating func csvField(_ value: String, alone: Bool) -> String {
        let needsQuotes =
            value.utf8.contains { $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }
            || value.utf8.first == 0x22 || (alone && value.isEmpty)
        guard needsQuotes || random.chance(0.3) else { return value }
        // Scalars, not characters: a quote followed by a combining mark is one character.
        var quoted = "\""
        for scalar in value.unicodeScalars {
            if scalar == "\"" { quoted += "\"" }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted + "\""
    }

    private func tsvField(_ value: String) -> String {
        var output = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "\t": output += "\\t"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    // MARK: - JSON

    /// A random JSON value; containers nest at most `depth` more levels.
    mutating func jsonValue(depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &random) {
        case 0: return .null
        case 1: return .bool(random.chance(0.5))
        case 2: return .number(numberLiteral())
        case 3, 4, 5: return .string(text())
        case 6:
            return .array(
                (0..<Int.random(in: 0...3, using: &random)).map { _ in jsonValue(depth: depth - 1) }
            )
        default: return .object(members(depth: depth - 1))
        }
    }

    private mutating func members(depth: Int) -> [JSONMember] {
        (0..<Int.random(in: 0...5, using: &random)).map { _ in
            JSONMember(
                key: random.chance(0.5) ? random.pick(["name", "first_name", "id", "x"]) : text(),
                value: jsonValue(depth: depth))
        }
    }

    private mutating func numberLiteral() -> String {
        var literal = random.chance(0.3) ? "-" : ""
        literal +=
            random.chance(0.2) ? "0" : String(UInt64.random(in: 1...UInt64.max, using: &random))
        if random.chance(0.3) {
            literal += "." + String(Int.random(in: 0...999_999, using: &random))
        }
        if random.chance(0.2) {
            literal +=
                random.pick(["e", "E"]) + random.pick(["", "+", "-"])
                + String(Int.random(in: 0...400, using: &random))
        }
        return literal
    }

    /// A value nested `depth` levels deep: `[[[...]]]` or `{"a":{"a":...}}`.
    static func nested(depth: Int, arrays: Bool) -> String {
        arrays
            ? String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            : String(repeating: "{\"a\":", count: depth) + "1"
                + String(repeating: "}", count: depth)
    }

    /// The JSON text of `value`, with random insignificant whitespace and random escapes.
    /// `lineBreaks` allows line feeds in the whitespace.
    mutating func write(_ value: JSONValue, lineBreaks: Bool, to output: inout String) {
        switch value {
        case .null, .bool, .number: output += value.jsonText
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += ","; whitespace(lineBreaks, &output) }
                whitespace(lineBreaks, &output)
                write(element, lineBreaks: lineBreaks, to: &output)
                whitespace(lineBreaks, &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                whitespace(lineBreaks, &output)
                writeString(member.key, to: &output)
                whitespace(lineBreaks, &output)
                output += ":"
                whitespace(lineBreaks, &output)
                write(member.value, lineBreaks: lineBreaks, to: &output)
                whitespace(lineBreaks, &output)
            }
            output += "}"
        }
    }

    private mutating func whitespace(_ lineBreaks: Bool, _ output: inout String) {
        while random.chance(0.25) {
            output +=
                lineBreaks
                ? random.pick([" ", "\t", "\n", "\r\n", "\r"]) : random.pick([" ", "\t"])
        }
    }

    /// A string literal; any character may be escaped, control characters always are.
    private mutating func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += random.chance(0.5) ? "\\\\" : "\\u005C"
            case "\n": output += random.chance(0.5) ? "\\n" : "\\u000a"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "/" where random.chance(0.5): output += "\\/"
            default:
                if scalar.value < 0x20 || random.chance(0.05) {
                    output += unicodeEscape(scalar)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }

    private mutating func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        func hex(_ unit: UInt16) -> String {
            let digits = String(unit, radix: 16, uppercase: random.chance(0.5))
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        return String(scalar).utf16.map(hex).joined()
    }

    private mutating func recordObject() -> JSONValue {
        var fields = members(depth: 2)
        if random.chance(0.05) {
            // Deep, but within the parser's limit of 512 levels (the record and its array
            // take two or three).
            fields.append(JSONMember(key: "deep", value: .array([])))
            var value = JSONValue.array([])
            for _ in 0..<Int.random(in: 100...505, using: &random) { value = .array([value]) }
            fields[fields.count - 1].value = value
        }
        return .object(fields)
    }

    private mutating func jsonArray() -> GeneratedDocument {
        var text = random.chance(0.2) ? "\u{FEFF}" : ""
        whitespace(true, &text)
        let sections: [String?] =
            random.chance(0.7)
            ? [nil]
            : (0..<Int.random(in: 0...3, using: &random)).map { _ in
                random.chance(0.5) ? random.pick(["people", "animals"]) : self.text()
            }
        var expected: [ReadEvent] = []
        var ends: [Int] = []
        if sections != [nil] { text += "{" }
        for (sectionIndex, section) in sections.enumerated() {
            if let section {
                if sectionIndex > 0 { text += "," }
                whitespace(true, &text)
                writeString(section, to: &text)
                whitespace(true, &text)
                text += ":"
                whitespace(true, &text)
            }
            text += "["
            let count = Int.random(in: 0...10, using: &random)
            for index in 0..<count {
                if index > 0 { text += "," }
                whitespace(true, &text)
                let record = recordObject()
                let bytes = Array(text.utf8)
                expected.append(
                    .record(
                        line: FuzzFormat.jsonArray.line(at: bytes.count, in: bytes),
                        section: section, fields: try! record.recordFields(line: 0, column: 0)))
                write(record, lineBreaks: true, to: &text)
                ends.append(text.utf8.count)
                whitespace(true, &text)
            }
            text += "]"
            whitespace(true, &text)
        }
        if sections != [nil] { text += "}" }
        whitespace(true, &text)
        return GeneratedDocument(bytes: Array(text.utf8), expected: expected, recordEnds: ends)
    }

    private mutating func ndjson() -> GeneratedDocument {
        var text = random.chance(0.2) ? "\u{FEFF}" : ""
        var expected: [ReadEvent] = []
        var ends: [Int] = []
        var line = 1
        let count = Int.random(in: 0...15, using: &random)
        for index in 0..<count {
            while random.chance(0.15) {
                text += random.pick(["", " ", "\t", "\r", " \r"]) + "\n"
                line += 1
            }
            whitespace(false, &text)
            let record = recordObject()
            expected.append(
                .record(
                    line: line, section: nil, fields: try! record.recordFields(line: 0, column: 0)))
            write(record, lineBreaks: false, to: &text)
            whitespace(false, &text)
            if index == count - 1 && random.chance(0.3) {
                ends.append(Int.max)
            } else {
                text += random.pick(["\n", "\r\n"])
                ends.append(text.utf8.count)
                line += 1
            }
        }
        return GeneratedDocument(bytes: Array(text.utf8), expected: expected, recordEnds: ends)
    }
}
