// The main file of the throwaway package scripts/benchmark-readers builds: writes the same
// records as CSV, TSV, a JSON array and NDJSON, then times reading each with its reader.
import FTSearchKit

#if canImport(Glibc)
import Glibc
#endif

let directory = CommandLine.arguments[1]
let rowCount = Int(CommandLine.arguments[2]) ?? 1_000_000

let cities = ["Oslo", "Zürich", "København", "Rome", "New York, NY", "São Paulo", "Lyon", "Kraków"]

func field(_ row: Int, _ column: Int) -> String {
    switch column {
    case 0: String(row)
    case 1: "Person \(row)"
    case 2: cities[row % cities.count]
    case 3: "person\(row)@example.org"
    default: row % 10 == 0 ? "likes \"quotes\", commas" : "note \(row % 997)"
    }
}

let names = ["id", "name", "city", "email", "note"]

func write(_ path: String, header: String?, _ line: (Int) -> String) {
    guard access(path, F_OK) != 0 else { return }
    guard let file = fopen(path, "w") else { fatalError("cannot write \(path)") }
    if let header { fputs(header, file) }
    for row in 0..<rowCount { fputs(line(row), file) }
    fclose(file)
}

func csvQuoted(_ text: String) -> String {
    text.contains(where: { $0 == "," || $0 == "\"" })
        ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

func jsonObject(_ row: Int) -> String {
    var members: [JSONMember] = []
    for column in 0..<5 {
        members.append(JSONMember(key: names[column], value: .string(field(row, column))))
    }
    return JSONValue.object(members).jsonText
}

write("\(directory)/records.csv", header: names.joined(separator: ",") + "\n") { row in
    (0..<5).map { csvQuoted(field(row, $0)) }.joined(separator: ",") + "\n"
}
write("\(directory)/records.tsv", header: names.joined(separator: "\t") + "\n") { row in
    (0..<5).map { field(row, $0) }.joined(separator: "\t") + "\n"
}
write("\(directory)/records.ndjson", header: nil) { jsonObject($0) + "\n" }
write("\(directory)/records.json", header: "[\n") { row in
    jsonObject(row) + (row == rowCount - 1 ? "\n]\n" : ",\n")
}

func time(_ label: String, path: String, _ format: InputFormat) throws {
    let clock = ContinuousClock()
    var records = 0
    var fields = 0
    let elapsed = try clock.measure {
        let input = try InputFile(path: path)
        var (_, reader) = try InputFormat.makeReader(for: input, format: format)
        while let record = try reader.nextRecord() {
            records += 1
            fields += record.fields.count
        }
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let size = Double(try InputFile(path: path).size ?? 0) / 1_048_576
    print("\(label): \(records) records, \(fields) fields in \(seconds) s (\(Int(size / seconds)) MiB/s)")
}

for (label, file, format) in [
    ("CSV", "records.csv", InputFormat.csv), ("TSV", "records.tsv", .tsv),
    ("JSON array", "records.json", .json), ("NDJSON", "records.ndjson", .ndjson),
] {
    try time(label, path: "\(directory)/\(file)", format)
}
